import { Modal } from '@/shared/ui/modal';
import { TopUpForm } from './top-up-form';

/** The top-up form in a modal at most 500 px wide. */
export function TopUpModal({
  isOpen,
  onOpenChange,
}: {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
}) {
  return (
    <Modal isOpen={isOpen} onOpenChange={onOpenChange} title="Пополнение баланса" size="md">
      {/* Mounted only while open, so every opening starts from the default amount. */}
      {isOpen ? <TopUpForm /> : null}
    </Modal>
  );
}
