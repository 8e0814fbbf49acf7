import { Card } from '@/shared/ui/card';

/** Placeholder: replaced by the three-step recovery of spec §2. */
export default function ResetPasswordPage() {
  return (
    <Card>
      <h1>Обновление пароля</h1>
    </Card>
  );
}
