import { type ReactNode, useState } from 'react';
import { loadOnce } from '@/shared/lib/load-once';
import { CodeInput } from './code-input';
import { lazyPart } from './lazy-part';
import type { ModalProps } from './modal-dialog';

export type { ModalProps } from './modal-dialog';

/**
 * The dialog's code (Radix Dialog, about 12 KB compressed) loads when a modal first opens, not
 * with the screens that may open one: home and /profile show several openers on their first paint
 * (their budgets: docs/benchmarks.md). While it loads the modal's place shows the loader; when it
 * cannot load, «Нет соединения» with «Повторить» (`lazyPart`).
 */
const loadDialog = loadOnce(() => import('./modal-dialog'));
let dialog: Awaited<ReturnType<typeof loadDialog>> | undefined;
const ModalDialog = lazyPart(() =>
  loadDialog().then((module) => {
    dialog = module;
    // Most of the portal's dialogs come to a code step: its boxes load now, while the person reads
    // the first step, so the code step opens ready for typing (keys typed into a loader are lost).
    CodeInput.preload().catch(() => {});
    return module;
  }),
);

/**
 * The one dialog of the portal (`./modal-dialog.tsx`). Nothing renders until it first opens; from
 * then on it stays rendered, so closing is Radix's own (the focus given back, `onClosed`).
 */
export function Modal(props: ModalProps) {
  const [hasOpened, setHasOpened] = useState(props.isOpen);
  if (props.isOpen && !hasOpened) setHasOpened(true);
  return hasOpened ? <ModalDialog {...props} /> : null;
}

/**
 * Wraps a button in the modal's footer (or anywhere inside) so that clicking it closes the modal.
 * It renders only inside an open modal, whose code has loaded by then.
 */
export function ModalClose({ children }: { children: ReactNode }) {
  if (!dialog) return children;
  return <dialog.ModalDialogClose>{children}</dialog.ModalDialogClose>;
}
