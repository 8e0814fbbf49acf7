// Russian number style: thin spaces between thousands, a comma before the kopecks.
const roubleFormat = new Intl.NumberFormat('ru-RU', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const wholeFormat = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });

/** A balance as the portal shows it: two decimals and a rouble sign, e.g. "1 250,50 ₽". */
export function formatRoubles(roubles: number): string {
  return `${roubleFormat.format(roubles)} ₽`;
}

/** Cashback points are whole numbers. */
export function formatPoints(points: number): string {
  return wholeFormat.format(points);
}

/** "балл", "балла", "баллов" by the Russian plural rule. */
export function pointsWord(points: number): string {
  const rule = new Intl.PluralRules('ru-RU').select(Math.abs(points));
  if (rule === 'one') return 'балл';
  if (rule === 'few') return 'балла';
  return 'баллов';
}

/** An amount with its sign, for the history: "+1 000,00 ₽", "−50 баллов". */
export function formatSignedAmount(
  amount: number,
  currency: 'rub' | 'points',
  direction: 'accrual' | 'writeOff',
): string {
  const sign = direction === 'accrual' ? '+' : '−';
  const value =
    currency === 'rub' ? formatRoubles(amount) : `${formatPoints(amount)} ${pointsWord(amount)}`;
  return `${sign}${value}`;
}
