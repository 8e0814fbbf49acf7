import { Card } from '@/shared/ui/card';

/** Placeholder: the sign-in engineer replaces this with the Войти / Регистрация tabs. */
export default function AuthPage() {
  return (
    <Card>
      <h1>Вход в личный кабинет</h1>
    </Card>
  );
}
