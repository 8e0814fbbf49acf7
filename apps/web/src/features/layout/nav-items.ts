import { SITE_HOSTING } from '@portal/contracts/messages';
import type { ComponentType, SVGProps } from 'react';
import { paths } from '@/config/paths';
import { runtimeConfig } from '@/config/runtime-config';
import { HomeIcon, ServerIcon, SupportIcon, UserIcon } from '@/shared/ui/icons';

type NavIcon = ComponentType<SVGProps<SVGSVGElement>>;

export type NavItem =
  | { kind: 'route'; label: string; to: string; icon: NavIcon; isEnd: boolean }
  | { kind: 'external'; label: string; href: string; icon: NavIcon; isNewTab: boolean };

/** The navigation: the same four entries in the sidebar and the bottom bar. */
export const navItems: readonly NavItem[] = [
  { kind: 'route', label: 'Главная', to: paths.home.getHref(), icon: HomeIcon, isEnd: true },
  // Not `end`: the devices page under /profile keeps "Личные данные" highlighted.
  {
    kind: 'route',
    label: 'Личные данные',
    to: paths.profile.getHref(),
    icon: UserIcon,
    isEnd: false,
  },
  {
    kind: 'external',
    label: 'Поддержка',
    href: runtimeConfig.supportUrl,
    icon: SupportIcon,
    isNewTab: true,
  },
  {
    kind: 'external',
    label: SITE_HOSTING,
    href: runtimeConfig.hostingUrl,
    icon: ServerIcon,
    isNewTab: false,
  },
];
