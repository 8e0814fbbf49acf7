// "404" where the zero is a server unit that lost its cable: one drawing per theme. Both are in the
// page and CSS shows the one matching [data-theme], so switching themes needs no re-render.

export function NotFoundDarkIllustration({ className }: { className: string }) {
  return (
    <svg className={className} viewBox="0 0 360 240" role="img" aria-label="Сервер отключён">
      <defs>
        <radialGradient id="nf-dark-glow" cx="0.5" cy="0.45" r="0.5">
          <stop offset="0" stopColor="#7c5cff" stopOpacity="0.45" />
          <stop offset="1" stopColor="#7c5cff" stopOpacity="0" />
        </radialGradient>
        <linearGradient id="nf-dark-digit" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#b7a6ff" />
          <stop offset="1" stopColor="#4f8bff" />
        </linearGradient>
        <linearGradient id="nf-dark-case" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#262c3f" />
          <stop offset="1" stopColor="#161a26" />
        </linearGradient>
      </defs>
      <ellipse cx="180" cy="110" rx="170" ry="110" fill="url(#nf-dark-glow)" />
      <g fill="#eef1f7">
        <circle cx="42" cy="36" r="1.6" opacity="0.8" />
        <circle cx="318" cy="28" r="1.2" opacity="0.6" />
        <circle cx="300" cy="82" r="1.8" opacity="0.9" />
        <circle cx="64" cy="150" r="1.2" opacity="0.5" />
        <circle cx="120" cy="22" r="1" opacity="0.7" />
        <circle cx="250" cy="190" r="1.4" opacity="0.5" />
        <path d="M334 140l2 5 5 2-5 2-2 5-2-5-5-2 5-2z" opacity="0.8" />
        <path d="M28 96l1.5 4 4 1.5-4 1.5-1.5 4-1.5-4-4-1.5 4-1.5z" opacity="0.7" />
      </g>
      <text
        x="70"
        y="150"
        textAnchor="middle"
        fontFamily="inherit"
        fontSize="108"
        fontWeight="800"
        fill="url(#nf-dark-digit)"
      >
        4
      </text>
      <text
        x="290"
        y="150"
        textAnchor="middle"
        fontFamily="inherit"
        fontSize="108"
        fontWeight="800"
        fill="url(#nf-dark-digit)"
      >
        4
      </text>
      <g transform="translate(130 58)">
        <rect
          width="100"
          height="100"
          rx="22"
          fill="url(#nf-dark-case)"
          stroke="#3a4258"
          strokeWidth="2"
        />
        <rect x="16" y="20" width="68" height="16" rx="5" fill="#0f121a" />
        <rect x="16" y="44" width="68" height="16" rx="5" fill="#0f121a" />
        <rect x="16" y="68" width="68" height="16" rx="5" fill="#0f121a" />
        <circle cx="26" cy="28" r="3.5" fill="#f0575a" />
        <circle cx="26" cy="52" r="3.5" fill="#f5a524" />
        <circle cx="26" cy="76" r="3.5" fill="#3a4258" />
        <path
          d="M40 28h34M40 52h34M40 76h34"
          stroke="#2b3247"
          strokeWidth="3"
          strokeLinecap="round"
        />
      </g>
      <path
        d="M180 158c0 22-26 22-26 42 0 14 14 18 26 18"
        fill="none"
        stroke="#5f6779"
        strokeWidth="4"
        strokeLinecap="round"
      />
      <g transform="translate(206 206)">
        <rect x="-14" y="4" width="26" height="16" rx="4" fill="#8d95a9" />
        <path d="M-8 4v-6M6 4v-6" stroke="#8d95a9" strokeWidth="3" strokeLinecap="round" />
      </g>
      <path
        d="M226 196l8-6M228 210h10M224 222l8 6"
        stroke="#f5a524"
        strokeWidth="3"
        strokeLinecap="round"
      />
    </svg>
  );
}

export function NotFoundLightIllustration({ className }: { className: string }) {
  return (
    <svg className={className} viewBox="0 0 360 240" role="img" aria-label="Сервер отключён">
      <defs>
        <linearGradient id="nf-light-sky" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#e9e4ff" />
          <stop offset="1" stopColor="#e6f7fb" />
        </linearGradient>
        <linearGradient id="nf-light-digit" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#6846ff" />
          <stop offset="1" stopColor="#22b8d6" />
        </linearGradient>
        <linearGradient id="nf-light-case" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#ffffff" />
          <stop offset="1" stopColor="#eef0f7" />
        </linearGradient>
      </defs>
      <ellipse cx="180" cy="112" rx="168" ry="104" fill="url(#nf-light-sky)" />
      <g fill="#ffffff">
        <path d="M44 66a14 14 0 0 1 26-6 11 11 0 0 1 14 11H44a6 6 0 0 1 0-5z" />
        <path d="M270 46a16 16 0 0 1 30-7 12 12 0 0 1 16 12h-46a6 6 0 0 1 0-5z" />
      </g>
      <circle cx="312" cy="120" r="14" fill="#ffd166" />
      <path
        d="M312 96v-6M312 150v-6M288 120h-6M342 120h-6"
        stroke="#ffd166"
        strokeWidth="3"
        strokeLinecap="round"
      />
      <text
        x="70"
        y="150"
        textAnchor="middle"
        fontFamily="inherit"
        fontSize="108"
        fontWeight="800"
        fill="url(#nf-light-digit)"
      >
        4
      </text>
      <text
        x="270"
        y="150"
        textAnchor="middle"
        fontFamily="inherit"
        fontSize="108"
        fontWeight="800"
        fill="url(#nf-light-digit)"
      >
        4
      </text>
      <g transform="translate(122 58)">
        <rect
          width="100"
          height="100"
          rx="22"
          fill="url(#nf-light-case)"
          stroke="#cfd4e2"
          strokeWidth="2"
        />
        <rect x="16" y="20" width="68" height="16" rx="5" fill="#e3e6ef" />
        <rect x="16" y="44" width="68" height="16" rx="5" fill="#e3e6ef" />
        <rect x="16" y="68" width="68" height="16" rx="5" fill="#e3e6ef" />
        <circle cx="26" cy="28" r="3.5" fill="#dc2626" />
        <circle cx="26" cy="52" r="3.5" fill="#d97706" />
        <circle cx="26" cy="76" r="3.5" fill="#cfd4e2" />
        <path
          d="M40 28h34M40 52h34M40 76h34"
          stroke="#cfd4e2"
          strokeWidth="3"
          strokeLinecap="round"
        />
      </g>
      <path
        d="M172 158c0 22-26 22-26 42 0 14 14 18 26 18"
        fill="none"
        stroke="#8d94a6"
        strokeWidth="4"
        strokeLinecap="round"
      />
      <g transform="translate(198 206)">
        <rect x="-14" y="4" width="26" height="16" rx="4" fill="#5b6376" />
        <path d="M-8 4v-6M6 4v-6" stroke="#5b6376" strokeWidth="3" strokeLinecap="round" />
      </g>
      <path
        d="M218 196l8-6M220 210h10M216 222l8 6"
        stroke="#d97706"
        strokeWidth="3"
        strokeLinecap="round"
      />
    </svg>
  );
}
