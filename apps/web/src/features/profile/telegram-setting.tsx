import { TELEGRAM_LINK_TTL_MINUTES } from '@portal/contracts/constants';
import { TELEGRAM_LINK_FAILED } from '@portal/contracts/messages';
import { useEffect, useState } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { runtimeConfig } from '@/config/runtime-config';
import { fetchCurrentUser } from '@/features/auth';
import { ProofStep, useProofThenRetry } from '@/features/security';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Modal, whenClosed } from '@/shared/ui/modal';
import { notify } from '@/shared/ui/toast';
import { generateTelegramLink } from './api/telegram';
import { telegramApi, useTelegramLinkedQuery } from './api/telegram-api';
import { unlinkTelegram } from './api/unlink';
import styles from './profile.module.css';
import { StatusText } from './status-text';
import { telegramCheckStatus, telegramStatus } from './two-factor-statuses';
import { UnlinkDialog } from './unlink-dialog';

/** How often the page asks whether the bot has linked the account, while a link is open. */
const RECHECK_EVERY_MS = 2_000;

/** Opens the bot's link in a new tab; `tab` is one opened inside the click, if any. */
function openLink(link: string, tab: Window | null = window.open('', '_blank')) {
  if (tab) {
    tab.opener = null;
    tab.location.href = link;
  } else {
    window.open(link, '_blank', 'noopener');
  }
}

/**
 * Telegram is mandatory ('*обязательно'). Connecting opens the bot's one-time link in a
 * new tab; the page then watches for the bot to report the link. 'Отвязать' unlinks it after a
 * confirmation and a fresh proof of the owner (`UnlinkDialog`). On a portal without a bot
 * (`isTelegramOffered`) an unlinked account sees «Недоступно» and a disabled button.
 */
export function TelegramSetting() {
  const dispatch = useAppDispatch();
  const [waitingUntil, setWaitingUntil] = useState<number | null>(null);
  // While the link is open in the other tab, the query asks now and then (and on the window's
  // focus, back from the bot); stops once linked or expired.
  const check = useTelegramLinkedQuery(undefined, {
    pollingInterval: waitingUntil === null ? 0 : RECHECK_EVERY_MS,
    refetchOnFocus: true,
  });
  const status = telegramStatus(telegramCheckStatus(check), runtimeConfig.isTelegramOffered);
  const [isLinking, setIsLinking] = useState(false);
  const [isUnlinkOpen, setIsUnlinkOpen] = useState(false);
  // Linking needs a fresh proof of the owner: the dialog asks for it, then offers the link.
  const linkProof = useProofThenRetry(() => notify.error(TELEGRAM_LINK_FAILED));
  /** The link got after the proof: the dialog's button opens it (a tab needs a click). */
  const [provenLink, setProvenLink] = useState<string | null>(null);

  // The link's life: a timer, not a load (the query above polls).
  useEffect(() => {
    if (waitingUntil === null) return;
    if (status === 'connected') {
      setWaitingUntil(null);
      // The bot also set the Telegram id and perhaps the phone: the user is read again.
      void dispatch(fetchCurrentUser());
      return;
    }
    const timer = setTimeout(() => setWaitingUntil(null), waitingUntil - Date.now());
    return () => clearTimeout(timer);
  }, [dispatch, waitingUntil, status]);

  function waitForBot() {
    setWaitingUntil(Date.now() + TELEGRAM_LINK_TTL_MINUTES * 60_000);
  }

  async function connect() {
    // Opened inside the click, so no popup blocker stops it; pointed at the bot once the link is in.
    const tab = window.open('', '_blank');
    setIsLinking(true);
    await linkProof.attempt(async () => {
      try {
        const { link } = await generateTelegramLink();
        // After a proof the tab opened by the first click is gone: the dialog offers the link.
        if (!tab?.closed) {
          openLink(link, tab);
          waitForBot();
        } else setProvenLink(link);
      } catch (error) {
        tab?.close();
        throw error;
      }
    });
    setIsLinking(false);
  }

  function closeLinkDialog() {
    linkProof.reset();
    setProvenLink(null);
  }

  return (
    <div className={blocks.settingRow} data-testid="telegram-setting">
      <div className={blocks.settingText}>
        <span className={blocks.settingTitle}>
          Telegram<span className={styles.required}>*обязательно</span>
        </span>
        <StatusText status={status} testId="telegram-status" />
      </div>
      {status === 'connected' ? (
        <Button variant="secondary" size="sm" onClick={() => setIsUnlinkOpen(true)}>
          Отвязать
        </Button>
      ) : (
        <Button
          size="sm"
          disabled={status === 'unavailable' || isLinking}
          aria-busy={isLinking}
          onClick={() => void connect()}
        >
          Подключить
        </Button>
      )}
      <Modal
        isOpen={linkProof.isProving || provenLink !== null}
        onOpenChange={whenClosed(closeLinkDialog)}
        title="Подключение Telegram"
        footer={
          provenLink ? (
            <Button
              onClick={() => {
                openLink(provenLink);
                waitForBot();
                closeLinkDialog();
              }}
            >
              Открыть Telegram
            </Button>
          ) : undefined
        }
      >
        {provenLink ? (
          <p className={blocks.lead}>
            Откройте бота в Telegram и нажмите «Запустить»: аккаунт привяжется сам.
          </p>
        ) : (
          <ProofStep onCancel={closeLinkDialog} onProven={linkProof.onProven} />
        )}
      </Modal>
      <UnlinkDialog
        isOpen={isUnlinkOpen}
        onOpenChange={setIsUnlinkOpen}
        title="Отвязать Telegram?"
        description="Уведомления о входах в аккаунт в Telegram больше не придут. Телефон, подключённый через бота, останется в профиле. Привязать Telegram можно снова в любой момент."
        unlink={unlinkTelegram}
        onUnlinked={() => {
          dispatch(telegramApi.util.invalidateTags(['Telegram', 'Checkup']));
          void dispatch(fetchCurrentUser());
        }}
      />
    </div>
  );
}
