import { useId } from 'react';
import { runtimeConfig } from '@/config/runtime-config';
import styles from './brand-logo.module.css';

/** The brand mark and name; the name is a setting (`brandName`). */
export function BrandLogo() {
  // Unique per instance: a gradient inside a hidden copy (the sidebar on mobile) would not paint.
  const gradientId = useId();
  return (
    <span className={styles.brand}>
      <svg className={styles.mark} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <defs>
          <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#7c5cff" />
            <stop offset="0.55" stopColor="#4f8bff" />
            <stop offset="1" stopColor="#22d3ee" />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="9" fill={`url(#${gradientId})`} />
        <path
          d="M9 21.5v-11l7 5.2 7-5.2v11"
          fill="none"
          stroke="#fff"
          strokeWidth="2.6"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className={styles.name}>{runtimeConfig.brandName}</span>
    </span>
  );
}
