import { STAFF_PAGES, type StaffAbility, type StaffRole, staffCan } from '@portal/contracts/staff';

export type StaffNavItem = { label: string; to: string; ability: StaffAbility };

/** The staff area's pages in the nav's order, each with what the member must be able to do. */
const STAFF_NAV: readonly StaffNavItem[] = [
  { label: 'Поиск клиента', to: STAFF_PAGES.search, ability: 'support' },
  { label: 'Запросы на деньги', to: STAFF_PAGES.money, ability: 'money' },
  { label: 'Сотрудники', to: STAFF_PAGES.roles, ability: 'admin' },
  { label: 'Журнал действий', to: STAFF_PAGES.audit, ability: 'admin' },
];

/** The pages this role can use (staffCan, the table the server's guard reads too). */
export function staffNavItems(role: StaffRole): StaffNavItem[] {
  return STAFF_NAV.filter((item) => staffCan(role, item.ability));
}

/** A page's route inside the area (`/staff/money` → `money`), the area being mounted at /staff/*. */
export function staffRoute(page: string): string {
  return page === STAFF_PAGES.search ? '' : page.slice(`${STAFF_PAGES.search}/`.length);
}

/** The address of one account's page. */
export function staffAccountHref(accountId: string): string {
  return STAFF_PAGES.account.replace(':id', encodeURIComponent(accountId));
}
