// The operator module's public entry: the one writer of the support's record (audit.ts), which the
// staff pages (modules/staff) use as the command line does, and the types of the staff money
// service (money-service.ts, on app.deps.staffMoney) whose calls the staff pages make. The command
// line itself (cli.ts) is reached by src/admin.ts only.

export {
  type AuditFilter,
  actedBy,
  listOperatorActions,
  type OperatorAction,
  recentOperatorActions,
  recordOperatorAction,
  type StaffActor,
} from './audit.js';
export { when } from './context.js';
export type { MoneyRequestView, StaffMoney } from './money-service.js';
export type { OperatorActionRow } from './schema.js';
