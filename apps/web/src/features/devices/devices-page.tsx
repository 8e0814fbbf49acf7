import { PageHeader } from '@/shared/ui/page-header';

/** Placeholder: replaced by the devices list of spec §2. */
export default function DevicesPage() {
  return <PageHeader title="Привязанные устройства" />;
}
