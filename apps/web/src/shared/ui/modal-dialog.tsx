import {
  MODAL_WIDTH_LARGE_PX,
  MODAL_WIDTH_SMALL_PX,
  TOP_UP_MODAL_MAX_WIDTH_PX,
} from '@portal/contracts/constants';
import * as Dialog from '@radix-ui/react-dialog';
import { type CSSProperties, type ReactNode, useRef } from 'react';
import { CloseIcon } from './icons';
import styles from './modal.module.css';

/** The portal's modals are 400 or 600 px wide; the top-up modal at most 500 px. */
const WIDTHS = {
  sm: MODAL_WIDTH_SMALL_PX,
  md: TOP_UP_MODAL_MAX_WIDTH_PX,
  lg: MODAL_WIDTH_LARGE_PX,
} as const;

export type ModalProps = {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  title: ReactNode;
  /** A line under the title; also what screen readers announce with it. */
  description?: ReactNode;
  size?: keyof typeof WIDTHS;
  /** Buttons at the bottom, right-aligned (stacked on narrow screens). */
  footer?: ReactNode;
  /**
   * Where the focus goes when the modal closes, if not back to what opened it: for a modal that
   * follows another one (its opener was inside the first), or whose opener is gone by then.
   */
  returnFocusTo?: () => HTMLElement | null | undefined;
  /**
   * Called once the modal is gone and the focus is back: the moment to open a modal that follows
   * this one (opened while this one still held the focus, the two would fight over it).
   */
  onClosed?: () => void;
  children?: ReactNode;
};

/**
 * The one dialog of the portal, on Radix Dialog: it traps focus, closes on Escape, a backdrop click
 * and its close button, locks page scroll while open and returns focus to what opened it. Screens
 * render it through `./modal.tsx`, which loads this file when a modal first opens.
 */
export default function ModalDialog({
  isOpen,
  onOpenChange,
  title,
  description,
  size = 'sm',
  footer,
  returnFocusTo,
  onClosed,
  children,
}: ModalProps) {
  const style = { '--modal-width': `${WIDTHS[size]}px` } as CSSProperties;
  // Radix returns focus to a Dialog.Trigger; these modals are opened by plain buttons, so the
  // element that had focus when the modal opened gets it back.
  const openerRef = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={isOpen} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} data-testid="modal-backdrop" />
        <Dialog.Content
          className={styles.content}
          style={style}
          onOpenAutoFocus={() => {
            openerRef.current =
              document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            const target = returnFocusTo?.() ?? openerRef.current;
            if (target?.isConnected) {
              event.preventDefault();
              target.focus();
            }
            onClosed?.();
          }}
          // Without a description Radix warns in the console unless told there is none.
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <header className={styles.header}>
            <Dialog.Title className={styles.title}>{title}</Dialog.Title>
            <Dialog.Close className={styles.close} aria-label="Закрыть">
              <CloseIcon />
            </Dialog.Close>
          </header>
          {description ? (
            <Dialog.Description className={styles.description}>{description}</Dialog.Description>
          ) : null}
          {children ? <div className={styles.body}>{children}</div> : null}
          {footer ? <footer className={styles.footer}>{footer}</footer> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Wraps a button in the modal's footer (or anywhere inside) so that clicking it closes the modal. */
export function ModalDialogClose({ children }: { children: ReactNode }) {
  return <Dialog.Close asChild>{children}</Dialog.Close>;
}
