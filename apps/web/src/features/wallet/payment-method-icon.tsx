import type { PaymentMethodId } from '@portal/contracts/wallet';
import type { ReactNode } from 'react';

// Simplified marks of the five known methods, drawn in-house in brand-neutral shapes.
const MARKS: Record<PaymentMethodId, ReactNode> = {
  card: (
    <>
      <rect x="3" y="6" width="26" height="20" rx="3.5" fill="#4f8bff" />
      <rect x="3" y="10.5" width="26" height="3.5" fill="#1e3a8a" />
      <rect x="7" y="18.5" width="8" height="3" rx="1" fill="#dbe6ff" />
    </>
  ),
  sbp: (
    <>
      <path d="M6 5l6.5 3.8v7.6L6 12.6z" fill="#5b57a2" />
      <path d="M12.5 8.8 26 16 19 20 12.5 16.4z" fill="#d90751" />
      <path d="M6 12.6l6.5 3.8V27L6 23.2z" fill="#faa61a" />
      <path d="M12.5 16.4 19 20v7l-6.5-3.6z" fill="#ed6f26" />
      <path d="M19 12.3 26 8.3V16l-7 4z" fill="#0f754e" />
      <path d="M12.5 8.8 19 12.3l7-4L19.5 4.5z" fill="#6fb43f" />
    </>
  ),
  crypto: (
    <>
      <circle cx="16" cy="16" r="12" fill="#f7931a" />
      <path
        d="M13 10.5h5a2.6 2.6 0 0 1 0 5.2h-5m0 0h5.6a2.7 2.7 0 0 1 0 5.3H13m0-10.5V21m1.5-12v2m3 0V9m-3 12v2m3-2v2"
        stroke="#fff"
        strokeWidth="1.6"
        fill="none"
      />
    </>
  ),
  yaPay: (
    <>
      <rect x="3" y="3" width="26" height="26" rx="7" fill="#111" />
      <path
        d="M17.6 9h-1.7c-2.7 0-4.2 1.4-4.2 3.6 0 2 1 3.1 2.8 4.3l1.5 1L12 23h2.5l3.6-5.4V23h2.2V9z"
        fill="#fc3f1d"
      />
    </>
  ),
  yaSplit: (
    <>
      <rect x="3" y="3" width="26" height="26" rx="7" fill="#fc3f1d" />
      <path d="M10 16h12M16 10v12" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" />
    </>
  ),
};

/** The coloured mark of a payment method, 32 px by default. */
export function PaymentMethodIcon({
  method,
  size = 32,
}: {
  method: PaymentMethodId;
  size?: number;
}) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      {MARKS[method]}
    </svg>
  );
}
