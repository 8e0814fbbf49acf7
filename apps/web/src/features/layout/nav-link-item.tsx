import { NavLink } from 'react-router';
import { ExternalIcon } from '@/shared/ui/icons';
import type { NavItem } from './nav-items';

type NavLinkItemProps = {
  item: NavItem;
  className: string | undefined;
  activeClassName: string | undefined;
  isExternalMarkShown?: boolean;
};

export function NavLinkItem({
  item,
  className,
  activeClassName,
  isExternalMarkShown = false,
}: NavLinkItemProps) {
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
