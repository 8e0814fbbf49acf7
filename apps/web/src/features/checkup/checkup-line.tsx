import { checkupHomeLine } from '@portal/contracts/checkup';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Card } from '@/shared/ui/card';
import { ChevronRightIcon } from '@/shared/ui/icons';
import styles from './checkup.module.css';
import { CHECKUP_PARAM } from './checkup-actions';
import { useCheckup } from './use-checkup';

/**
 * Home: one line while something of the checkup is missing, to the profile. With exactly one
 * item missing the link goes straight to doing it (`?checkup=<item>`).
 */
export function CheckupLine() {
  const checkup = useCheckup();
  if (!checkup || checkup.missing === 0) return null;
  const undone = checkup.items.filter((entry) => !entry.isDone);
  const href =
    undone.length === 1 && undone[0]
      ? `${paths.profile.getHref()}?${CHECKUP_PARAM}=${undone[0].item}`
      : paths.profile.getHref();
  return (
    <Card className={styles.line} aria-label="Проверка безопасности" data-testid="checkup-line">
      <Link className={styles.lineLink} to={href}>
        <span>{checkupHomeLine(checkup.missing)}</span>
        <ChevronRightIcon width={16} height={16} />
      </Link>
    </Card>
  );
}
