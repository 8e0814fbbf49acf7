import { CHECKUP_TEXTS, CHECKUP_TITLE, type CheckupItem } from '@portal/contracts/checkup';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { CheckIcon } from '@/shared/ui/icons';
import styles from './checkup.module.css';
import { CHECKUP_PARAM, pressCheckupTarget } from './checkup-actions';
import { useCheckup } from './use-checkup';

/**
 * The profile's «Проверка безопасности»: every item, done or not; each one not done has the
 * button that does it. Coming from the home page with `?checkup=<item>`, that button is pressed
 * once the profile is on screen.
 */
export function CheckupCard() {
  const checkup = useCheckup();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get(CHECKUP_PARAM) as CheckupItem | null;

  function act(item: CheckupItem) {
    if (item === 'idle_sessions') void navigate(paths.devices.getHref());
    else pressCheckupTarget(item);
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: acts once per request from home.
  useEffect(() => {
    if (!requested || !checkup) return;
    setSearchParams({}, { replace: true });
    if (checkup.items.some((entry) => entry.item === requested && !entry.isDone)) act(requested);
  }, [requested, checkup]);

  if (!checkup) return null;
  return (
    <Card aria-labelledby="checkup-title" data-testid="checkup-card">
      <h2 id="checkup-title" className={blocks.cardTitle}>
        {CHECKUP_TITLE}
      </h2>
      <ul className={styles.items}>
        {checkup.items.map(({ item, isDone }) => (
          <li key={item} className={styles.item} data-testid={`checkup-${item}`}>
            <span className={styles.mark} data-done={isDone || undefined} aria-hidden="true">
              {isDone ? <CheckIcon width={14} height={14} strokeWidth={3} /> : '!'}
            </span>
            <span className={styles.text}>
              {isDone ? CHECKUP_TEXTS[item].done : CHECKUP_TEXTS[item].todo}
            </span>
            {!isDone && (
              <Button variant="secondary" size="sm" onClick={() => act(item)}>
                {CHECKUP_TEXTS[item].action}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
