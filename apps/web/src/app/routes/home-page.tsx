import { CheckupLine } from '@/features/checkup';
import { HomeLayout } from '@/features/home/home-layout';
import { UserCard } from '@/features/home/user-card';
import { MyServices } from '@/features/services/my-services';
import { PromoBanner } from '@/features/services/promo-banner';
import { ServiceCatalogue } from '@/features/services/service-catalogue';
import { WalletPanel } from '@/features/wallet/wallet-panel';

/**
 * Home combines several features (user card, services, wallet panel), and features do not import
 * each other, so the page that puts them side by side lives in the app layer.
 */
export default function HomePage() {
  return (
    <HomeLayout
      userCard={<UserCard />}
      checkup={<CheckupLine />}
      wallet={<WalletPanel />}
      promo={<PromoBanner />}
      services={<MyServices />}
      catalogue={<ServiceCatalogue />}
    />
  );
}
