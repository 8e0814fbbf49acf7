import {
  type ComponentProps,
  type ComponentType,
  createElement,
  type ReactNode,
  useState,
} from 'react';
import { loadOnce } from '@/shared/lib/load-once';
import { CodeInput } from './code-input';
import { lazyPart } from './lazy-part';

export type { ModalProps } from './modal-dialog';

/**
 * A dialog whose code comes when it first opens: a screen shows its openers on the first paint,
 * while a dialog is a next step (the signed-in pages' budgets: docs/benchmarks.md). Nothing
 * renders until `isOpen` is first true; then the loader, or «Нет соединения» with «Повторить»
 * (`lazyPart`), and the dialog, which from then on stays rendered so that its closing is its own
 * (Radix's: the focus given back, `onClosed`).
 */
function lazyDialog<
  // biome-ignore lint/suspicious/noExplicitAny: as lazyPart's: any dialog, its props taken from it.
  Dialog extends ComponentType<any>,
>(load: () => Promise<{ default: Dialog }>) {
  const Part = lazyPart(load);
  function LazyDialog(props: ComponentProps<Dialog> & { isOpen: boolean }) {
    const [hasOpened, setHasOpened] = useState(props.isOpen);
    if (props.isOpen && !hasOpened) setHasOpened(true);
    return hasOpened ? createElement(Part, props) : null;
  }
  return Object.assign(LazyDialog, { preload: Part.preload });
}

/**
 * The dialog's code (Radix Dialog, about 12 KB compressed) loads when a modal first opens, not
 * with the screens that may open one: home and /profile show several openers on their first paint
 * (their budgets: docs/benchmarks.md).
 */
const loadDialog = loadOnce(() => import('./modal-dialog'));
let dialog: Awaited<ReturnType<typeof loadDialog>> | undefined;

/** The one dialog of the portal (`./modal-dialog.tsx`). */
export const Modal = lazyDialog(() =>
  loadDialog().then((module) => {
    dialog = module;
    // Most of the portal's dialogs come to a code step: its boxes load now, while the person reads
    // the first step, so the code step opens ready for typing (keys typed into a loader are lost).
    CodeInput.preload().catch(() => {});
    return module;
  }),
);

/**
 * A screen's dialog whose own code (its form, its steps) loads when it first opens, with the
 * modal's at the same time rather than one after the other (`lazyDialog`). `load` gives a module
 * whose default export is the dialog.
 */
export function lazyModal<
  // biome-ignore lint/suspicious/noExplicitAny: as lazyDialog's: any dialog, its props taken from it.
  Dialog extends ComponentType<any>,
>(load: () => Promise<{ default: Dialog }>) {
  return lazyDialog(() => Promise.all([load(), Modal.preload()]).then(([module]) => module));
}

/**
 * A modal's `onOpenChange` when only its owner opens it: the modal closing by itself (Escape, the
 * backdrop, its close button, a `ModalClose`) calls `onClose`.
 */
export function whenClosed(onClose: () => void) {
  return (isOpen: boolean) => {
    if (!isOpen) onClose();
  };
}

/**
 * Wraps a button in the modal's footer (or anywhere inside) so that clicking it closes the modal.
 * It renders only inside an open modal, whose code has loaded by then.
 */
export function ModalClose({ children }: { children: ReactNode }) {
  if (!dialog) return children;
  return <dialog.ModalDialogClose>{children}</dialog.ModalDialogClose>;
}
