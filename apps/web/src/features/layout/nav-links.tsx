import { NavLink } from 'react-router';
import { ExternalIcon } from '@/shared/ui/icons';
import { type NavItem, navItems } from './nav-items';

type NavLinksProps = {
  /** What a screen reader calls this navigation. */
  label: string;
  className: string | undefined;
  linkClassName: string | undefined;
  activeClassName: string | undefined;
  /** Marks the links that leave the portal. */
  isExternalMarkShown?: boolean;
};

/** The navigation's links, one per entry of nav-items.ts: the sidebar and the bottom bar both show them. */
export function NavLinks({
  label,
  className,
  linkClassName,
  activeClassName,
  isExternalMarkShown = false,
}: NavLinksProps) {
  return (
    <nav aria-label={label} className={className}>
      {navItems.map((item) => (
        <NavLinkItem
          key={item.label}
          item={item}
          className={linkClassName}
          activeClassName={activeClassName}
          isExternalMarkShown={isExternalMarkShown}
        />
      ))}
    </nav>
  );
}

type NavLinkItemProps = {
  item: NavItem;
  className: string | undefined;
  activeClassName: string | undefined;
  isExternalMarkShown: boolean;
};

function NavLinkItem({ item, className, activeClassName, isExternalMarkShown }: NavLinkItemProps) {
  const Icon = item.icon;
  if (item.kind === 'external') {
    return (
      <a
        className={className}
        href={item.href}
        {...(item.isNewTab ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
      >
        <Icon />
        <span>{item.label}</span>
        {isExternalMarkShown ? <ExternalIcon data-external-mark="" /> : null}
      </a>
    );
  }
  return (
    <NavLink
      to={item.to}
      end={item.isEnd}
      className={({ isActive }) =>
        isActive ? `${className} ${activeClassName}` : (className ?? '')
      }
    >
      <Icon />
      <span>{item.label}</span>
    </NavLink>
  );
}
