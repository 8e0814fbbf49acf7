// "404" where the zero is a server unit that lost its cable: one drawing per theme. Both are in the
// page and CSS shows the one matching [data-theme], so switching themes needs no re-render. The two
// drawings differ only in their sky and colours, so the digits and the unplugged server are drawn
// once here and take each theme's colours.

/** One "4" of the "404", filled with the theme's digit gradient. */
function Four({ x, fill }: { x: number; fill: string }) {
  return (
    <text
      x={x}
      y="150"
      textAnchor="middle"
      fontFamily="inherit"
      fontSize="108"
      fontWeight="800"
      fill={fill}
    >
      4
    </text>
  );
}

/** A round-capped line of the drawing (a cable, sparks, a slot's label, a ray). */
function Stroke({ d, colour, width = 3 }: { d: string; colour: string; width?: number }) {
  return <path d={d} fill="none" stroke={colour} strokeWidth={width} strokeLinecap="round" />;
}

type Theme = 'dark' | 'light';

/** The server's colours in each theme, side by side. */
const SERVER_COLOURS = {
  case: { dark: 'url(#nf-dark-case)', light: 'url(#nf-light-case)' },
  edge: { dark: '#3a4258', light: '#cfd4e2' },
  slot: { dark: '#0f121a', light: '#e3e6ef' },
  slotLine: { dark: '#2b3247', light: '#cfd4e2' },
  ledRed: { dark: '#f0575a', light: '#dc2626' },
  ledAmber: { dark: '#f5a524', light: '#d97706' },
  cable: { dark: '#5f6779', light: '#8d94a6' },
  plug: { dark: '#8d95a9', light: '#5b6376' },
} satisfies Record<string, Record<Theme, string>>;

/** A two-stop gradient, top to bottom or, diagonal, corner to corner. */
function Gradient({
  id,
  from,
  to,
  diagonal = false,
}: {
  id: string;
  from: string;
  to: string;
  diagonal?: boolean;
}) {
  return (
    <linearGradient id={id} x1="0" y1="0" x2={diagonal ? '1' : '0'} y2="1">
      <stop offset="0" stopColor={from} />
      <stop offset="1" stopColor={to} />
    </linearGradient>
  );
}

/** The "0": a server unit, its cable hanging down and the plug sparking beside it. */
function UnpluggedServer({ x, theme }: { x: number; theme: Theme }) {
  const colour = (role: keyof typeof SERVER_COLOURS) => SERVER_COLOURS[role][theme];
  return (
    <g transform={`translate(${x} 0)`}>
      <g transform="translate(0 58)">
        <rect
          width="100"
          height="100"
          rx="22"
          fill={colour('case')}
          stroke={colour('edge')}
          strokeWidth="2"
        />
        {[20, 44, 68].map((y) => (
          <rect key={y} x="16" y={y} width="68" height="16" rx="5" fill={colour('slot')} />
        ))}
        <circle cx="26" cy="28" r="3.5" fill={colour('ledRed')} />
        <circle cx="26" cy="52" r="3.5" fill={colour('ledAmber')} />
        <circle cx="26" cy="76" r="3.5" fill={colour('edge')} />
        <Stroke d="M40 28h34M40 52h34M40 76h34" colour={colour('slotLine')} />
      </g>
      <Stroke d="M50 158c0 22-26 22-26 42 0 14 14 18 26 18" colour={colour('cable')} width={4} />
      <g transform="translate(76 206)">
        <rect x="-14" y="4" width="26" height="16" rx="4" fill={colour('plug')} />
        <Stroke d="M-8 4v-6M6 4v-6" colour={colour('plug')} />
      </g>
      <Stroke d="M96 196l8-6M98 210h10M94 222l8 6" colour={colour('ledAmber')} />
    </g>
  );
}

export function NotFoundDarkIllustration({ className }: { className: string }) {
  return (
    <svg className={className} viewBox="0 0 360 240" role="img" aria-label="Сервер отключён">
      <defs>
        <radialGradient id="nf-dark-glow" cx="0.5" cy="0.45" r="0.5">
          <stop offset="0" stopColor="#7c5cff" stopOpacity="0.45" />
          <stop offset="1" stopColor="#7c5cff" stopOpacity="0" />
        </radialGradient>
        <Gradient id="nf-dark-digit" from="#b7a6ff" to="#4f8bff" />
        <Gradient id="nf-dark-case" from="#262c3f" to="#161a26" diagonal />
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
      <Four x={70} fill="url(#nf-dark-digit)" />
      <Four x={290} fill="url(#nf-dark-digit)" />
      <UnpluggedServer x={130} theme="dark" />
    </svg>
  );
}

export function NotFoundLightIllustration({ className }: { className: string }) {
  return (
    <svg className={className} viewBox="0 0 360 240" role="img" aria-label="Сервер отключён">
      <defs>
        <Gradient id="nf-light-sky" from="#e9e4ff" to="#e6f7fb" />
        <Gradient id="nf-light-digit" from="#6846ff" to="#22b8d6" />
        <Gradient id="nf-light-case" from="#ffffff" to="#eef0f7" diagonal />
      </defs>
      <ellipse cx="180" cy="112" rx="168" ry="104" fill="url(#nf-light-sky)" />
      <g fill="#ffffff">
        <path d="M44 66a14 14 0 0 1 26-6 11 11 0 0 1 14 11H44a6 6 0 0 1 0-5z" />
        <path d="M270 46a16 16 0 0 1 30-7 12 12 0 0 1 16 12h-46a6 6 0 0 1 0-5z" />
      </g>
      <circle cx="312" cy="120" r="14" fill="#ffd166" />
      <Stroke d="M312 96v-6M312 150v-6M288 120h-6M342 120h-6" colour="#ffd166" />
      <Four x={70} fill="url(#nf-light-digit)" />
      <Four x={270} fill="url(#nf-light-digit)" />
      <UnpluggedServer x={122} theme="light" />
    </svg>
  );
}
