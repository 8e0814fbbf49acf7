import { PASSKEY_MESSAGES, type Passkey } from '@portal/contracts/passkeys';
import { useState } from 'react';
import { createPasskey, isPasskeyCancelled, isWebAuthnAvailable } from '@/shared/lib/webauthn';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { LoadFailed } from '@/shared/ui/load-failed';
import { lazyModal } from '@/shared/ui/modal';
import { notify } from '@/shared/ui/toast';
import {
  usePasskeyRegistrationOptionsMutation,
  usePasskeysQuery,
  useRegisterPasskeyMutation,
  useRenamePasskeyMutation,
} from './api/passkeys-api';
import styles from './passkeys.module.css';
import { passkeyDates, PASSKEY_TEXTS as TEXTS } from './passkeys-texts';

// The dialogs (the name form, react-hook-form with it) load when one first opens.
const NameDialog = lazyModal(() =>
  import('./passkey-dialogs').then((module) => ({ default: module.NameDialog })),
);
const RemoveDialog = lazyModal(() =>
  import('./passkey-dialogs').then((module) => ({ default: module.RemoveDialog })),
);

type Dialog =
  | { kind: 'add' }
  | { kind: 'rename'; passkey: Passkey }
  | { kind: 'remove'; passkey: Passkey }
  | null;

/**
 * «Ключи доступа» of the profile: the account's passkeys with their dates, adding one (the
 * browser's own dialog, after a fresh proof of the owner), renaming and removing (also after a
 * proof).
 */
export function PasskeysSection() {
  const list = usePasskeysQuery();
  const passkeys = list.data ?? null;
  const [registrationOptions] = usePasskeyRegistrationOptionsMutation();
  const [registerPasskey] = useRegisterPasskeyMutation();
  const [renamePasskey] = useRenamePasskeyMutation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const isSupported = isWebAuthnAvailable();

  const close = () => setDialog(null);

  return (
    <Card aria-labelledby="passkeys-title">
      <div className={`${blocks.spread} ${styles.header}`}>
        <div>
          <h2 id="passkeys-title" className={styles.title}>
            {TEXTS.title}
          </h2>
          <p className={blocks.lead}>{isSupported ? TEXTS.lead : TEXTS.unsupported}</p>
        </div>
        {isSupported && (
          <Button variant="secondary" size="sm" onClick={() => setDialog({ kind: 'add' })}>
            {TEXTS.add}
          </Button>
        )}
      </div>
      {passkeys === null && list.isError && !list.isFetching && (
        <LoadFailed error={list.error} onRetry={() => void list.refetch()} />
      )}
      {passkeys !== null && passkeys.length === 0 && <p className={blocks.lead}>{TEXTS.empty}</p>}
      {passkeys !== null && passkeys.length > 0 && (
        <ul className={blocks.plainList} aria-label={TEXTS.title}>
          {passkeys.map((passkey) => (
            <li key={passkey.id} className={styles.item} data-testid="passkey">
              <div className={styles.itemText}>
                <span className={styles.name}>{passkey.name}</span>
                <span className={styles.dates}>
                  {passkeyDates(passkey.createdAt, passkey.lastUsedAt)}
                </span>
              </div>
              <div className={styles.actions}>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`${TEXTS.rename}: ${passkey.name}`}
                  onClick={() => setDialog({ kind: 'rename', passkey })}
                >
                  {TEXTS.rename}
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`${TEXTS.remove}: ${passkey.name}`}
                  onClick={() => setDialog({ kind: 'remove', passkey })}
                >
                  {TEXTS.remove}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}

      <NameDialog
        isOpen={dialog?.kind === 'add'}
        title={TEXTS.addTitle}
        lead={TEXTS.addLead}
        submitText={TEXTS.create}
        initialName={TEXTS.defaultName}
        onClose={close}
        onSubmit={async (name) => {
          const options = await registrationOptions().unwrap();
          let response: Awaited<ReturnType<typeof createPasskey>>;
          try {
            response = await createPasskey(options);
          } catch (error) {
            if (!isPasskeyCancelled(error)) notify.error(PASSKEY_MESSAGES.registrationFailed);
            return false;
          }
          const answer = await registerPasskey({ name, response }).unwrap();
          notify.success(answer.message);
          return true;
        }}
      />
      <NameDialog
        isOpen={dialog?.kind === 'rename'}
        title={TEXTS.renameTitle}
        submitText={TEXTS.save}
        initialName={dialog?.kind === 'rename' ? dialog.passkey.name : ''}
        onClose={close}
        onSubmit={async (name) => {
          if (dialog?.kind !== 'rename') return false;
          await renamePasskey({ id: dialog.passkey.id, name }).unwrap();
          notify.success(PASSKEY_MESSAGES.renamed);
          return true;
        }}
      />
      <RemoveDialog
        isOpen={dialog?.kind === 'remove'}
        passkey={dialog?.kind === 'remove' ? dialog.passkey : null}
        onClose={close}
      />
    </Card>
  );
}
