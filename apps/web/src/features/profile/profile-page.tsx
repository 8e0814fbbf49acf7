import { PageHeader } from '@/shared/ui/page-header';

/** Placeholder: replaced by the profile of spec §2. */
export default function ProfilePage() {
  return <PageHeader title="Личные данные" />;
}
