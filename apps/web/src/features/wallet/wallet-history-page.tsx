import { PageHeader } from '@/shared/ui/page-header';

/** Placeholder: replaced by the history of accruals and write-offs. */
export default function WalletHistoryPage() {
  return <PageHeader title="История начислений и списаний" />;
}
