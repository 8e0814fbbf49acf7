import { useAppSelector } from '@/app/hooks';
import { selectUser } from '@/features/auth/user-slice';
import { PageHeader } from '@/shared/ui/page-header';

/**
 * Home combines several features (user card, services, wallet panel), and features do not import
 * each other, so the page that puts them side by side lives in the app layer.
 */
export default function HomePage() {
  const user = useAppSelector(selectUser);
  return (
    <PageHeader title="Главная">{user ? <p>Здравствуйте, {user.firstName}!</p> : null}</PageHeader>
  );
}
