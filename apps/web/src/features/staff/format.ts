import type { StaffAccountHit } from '@portal/contracts/staff';
import { formatRussianDate, formatTime } from '@/shared/lib/format-date';
import { formatPoints, formatRoubles } from '@/shared/lib/format-money';

/** '21 ноября 2026 г., 10:05', as the rest of the app writes a moment. */
export function formatMoment(iso: string): string {
  return `${formatRussianDate(iso)}, ${formatTime(iso)}`;
}

export function formatAmount(amount: number, currency: 'rub' | 'points'): string {
  return currency === 'rub' ? formatRoubles(amount) : `${formatPoints(amount)} б.`;
}

/** What matched a search, beside its row. */
export const MATCHED_BY: Record<StaffAccountHit['matchedBy'], string> = {
  id: 'id',
  email: 'e-mail',
  username: 'имя пользователя',
  phone: 'телефон',
  telegram: 'Telegram',
  payment: 'платёж',
  partial: 'часть e-mail или имени',
};
