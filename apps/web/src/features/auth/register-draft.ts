import type { registerFormSchema } from '@portal/contracts/auth';
import type { z } from 'zod';

/** The registration form as typed: kept while the code screen shows, to come back to. */
export type RegisterDraft = z.input<typeof registerFormSchema>;

export const emptyRegisterDraft: RegisterDraft = {
  email: '',
  name: '',
  username: '',
  password: '',
  confirmPassword: '',
  consent: false,
};
