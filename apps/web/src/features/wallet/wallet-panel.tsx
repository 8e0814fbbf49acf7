import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { selectUser } from '@/features/auth';
import { formatPoints, formatRoubles, pointsWord } from '@/shared/lib/format-money';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Card, CardHead } from '@/shared/ui/card';
import {
  CreditIcon,
  HistoryIcon,
  InfoIcon,
  PlusIcon,
  SparkIcon,
  WalletIcon,
} from '@/shared/ui/icons';
import { lazyModal } from '@/shared/ui/modal';
import { Skeleton } from '@/shared/ui/skeleton';
import { useTopUpReturn } from './use-top-up-return';
import { CashbackInfoDialog, OverdraftInfoDialog } from './wallet-info-dialogs';
import styles from './wallet-panel.module.css';

/** The top-up form (react-hook-form with it) loads when it is first opened, not with home. */
const TopUpModal = lazyModal(() =>
  import('./top-up-modal').then((module) => ({ default: module.TopUpModal })),
);

type OpenDialog = 'topUp' | 'cashback' | 'overdraft' | null;

/** The wallet panel: balance, cashback points and overdraft tiles, and the top-up button. */
export function WalletPanel() {
  const user = useAppSelector(selectUser);
  const [openDialog, setOpenDialog] = useState<OpenDialog>(null);
  useTopUpReturn();
  const openChange = (dialog: Exclude<OpenDialog, null>) => (isOpen: boolean) =>
    setOpenDialog(isOpen ? dialog : null);

  return (
    <Card className={styles.panel} aria-labelledby="wallet-panel-title">
      <CardHead titleId="wallet-panel-title" title="Кошелёк">
        <Link to={paths.walletHistory.getHref()} className={styles.historyLink}>
          <HistoryIcon width={16} height={16} />
          История операций
        </Link>
      </CardHead>

      <div className={styles.tiles}>
        <Tile
          tone="balance"
          icon={<WalletIcon />}
          label="Баланс"
          value={user ? formatRoubles(user.balance) : null}
          action={
            <Button
              size="sm"
              className={styles.topUpButton}
              onClick={() => setOpenDialog('topUp')}
              disabled={!user}
            >
              <PlusIcon width={16} height={16} />
              Пополнить
            </Button>
          }
        />
        <Tile
          tone="cashback"
          icon={<SparkIcon />}
          label="Баллы кэшбэка"
          value={
            user ? (
              <>
                {formatPoints(user.balanceStars)}{' '}
                <span className={styles.unit}>{pointsWord(user.balanceStars)}</span>
              </>
            ) : null
          }
          info={{ label: 'Что такое баллы кэшбэка', onClick: () => setOpenDialog('cashback') }}
        />
        <Tile
          tone="overdraft"
          icon={<CreditIcon />}
          label="Овердрафт"
          value={<span className={`${blocks.pill} ${blocks.pillMuted}`}>Скоро</span>}
          info={{ label: 'Что такое овердрафт', onClick: () => setOpenDialog('overdraft') }}
        />
      </div>

      <TopUpModal isOpen={openDialog === 'topUp'} onOpenChange={openChange('topUp')} />
      <CashbackInfoDialog
        isOpen={openDialog === 'cashback'}
        onOpenChange={openChange('cashback')}
      />
      <OverdraftInfoDialog
        isOpen={openDialog === 'overdraft'}
        onOpenChange={openChange('overdraft')}
      />
    </Card>
  );
}

type TileProps = {
  tone: 'balance' | 'cashback' | 'overdraft';
  icon: ReactNode;
  label: string;
  /** `null` while the user is loading. */
  value: ReactNode | null;
  info?: { label: string; onClick: () => void };
  action?: ReactNode;
};

function Tile({ tone, icon, label, value, info, action }: TileProps) {
  return (
    <section className={`${styles.tile} ${styles[tone]}`} aria-label={label}>
      <div className={styles.tileTop}>
        <span className={styles.tileIcon}>{icon}</span>
        <span className={`${blocks.figureLabel} ${styles.tileLabel}`}>{label}</span>
        {info ? (
          <button
            type="button"
            className={styles.infoButton}
            aria-label={info.label}
            onClick={info.onClick}
          >
            <InfoIcon width={18} height={18} />
          </button>
        ) : null}
      </div>
      <div className={`${blocks.spread} ${styles.tileBottom}`}>
        <p className={styles.value} data-testid={`${tone}-value`}>
          {value ?? <Skeleton width={120} height={28} />}
        </p>
        {action}
      </div>
    </section>
  );
}
