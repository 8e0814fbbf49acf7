/**
 * Every text a person can read that comes from validation or from the error
 * catalogue. Unmarked texts are the product's own wording and are kept letter for
 * letter (`messages.test.ts` holds a copy); texts the product does not give
 * (server answers, rules the server adds) are marked as ours.
 */

// Password rule (register, reset, change)
export const PASSWORD_TOO_SHORT = 'Пароль должен содержать минимум 8 символов';
export const PASSWORD_TOO_LONG = 'Пароль должен содержать максимум 32 символа';
export const PASSWORD_NEEDS_UPPERCASE =
  'Пароль должен содержать хотя бы одну заглавную букву (A-Z)';
export const PASSWORD_NEEDS_LOWERCASE = 'Пароль должен содержать хотя бы одну строчную букву (a-z)';
export const PASSWORD_NEEDS_DIGIT = 'Пароль должен содержать хотя бы одну цифру (0-9)';
export const PASSWORD_HAS_CYRILLIC = 'Пароль не должен содержать кириллицу';
export const PASSWORDS_DO_NOT_MATCH = 'Пароли не совпадают';
// Ours: the server's extra password rules (a blocklist, not equal to the username or e-mail).
export const PASSWORD_TOO_COMMON = 'Этот пароль слишком распространён, выберите другой';
export const PASSWORD_EQUALS_LOGIN = 'Пароль не должен совпадать с никнеймом или почтой';

// Register form
export const EMAIL_INVALID = 'Некорректный email';
export const NAME_REQUIRED = 'Имя обязательно';
export const USERNAME_REQUIRED = 'Никнейм обязателен';
export const USERNAME_HAS_CYRILLIC = 'Никнейм не должен содержать кириллицу';
// Ours: the register form's consent box (the product only disables submit).
export const CONSENT_REQUIRED = 'Необходимо согласие на обработку персональных данных';

// Login form
export const LOGIN_REQUIRED = 'Введите логин';
export const PASSWORD_REQUIRED = 'Введите пароль';
export const TWO_FACTOR_CODE_REQUIRED = 'Введите код подтверждения';
export const TWO_FACTOR_CODE_LENGTH = 'Код должен содержать 6 символов';

// Password change form
export const OLD_PASSWORD_REQUIRED = 'Введите текущий пароль';

// Google authenticator code: 1–6 digits
export const FIELD_REQUIRED = 'Заполните поле';

// Reset step 2: the mailed code
export const RESET_CODE_REQUIRED = 'Введите код, отправленный на почту';

// Profile
export const USERNAME_TOO_SHORT = 'Минимум 3 символа';
export const USERNAME_TOO_LONG = 'Максимум 16 символов';
export const FIELD_ONLY_WHITESPACE = 'Поле не должно состоять только из пробелов';
export const FIELD_EMPTY = 'Поле не должно быть пустым';
// Ours: names need an upper bound on the server.
export const NAME_TOO_LONG = 'Максимум 64 символа';
// Ours: the avatar accepts png or jpeg; the product gives no message for anything else.
export const AVATAR_WRONG_TYPE = 'Допустимы только изображения PNG или JPEG';

// E-mail change modal
export const FIELDS_EMPTY = 'Поля не должно быть пустыми';
export const EMAIL_WRONG = 'Неверная почта';
export const EMAIL_UPDATED = 'Почта обновлена';

// A wrong confirmation code, wherever one is typed
export const CODE_WRONG = 'Неверный код';
// Ours: after a wrong code, where the tries left may be told (`Неверный код. Осталось попыток: 4`).
export const CODE_TRIES_LEFT = 'Осталось попыток:';

// Top-up (ours: the form has no limits, the server needs sane numbers)
export const AMOUNT_REQUIRED = 'Введите сумму';
export const AMOUNT_NOT_POSITIVE = 'Сумма должна быть больше нуля';
export const AMOUNT_TOO_PRECISE = 'Сумма может содержать не более двух знаков после запятой';

// Ours: top-ups on a portal with no payment terminal configured.
export const TOP_UP_NOT_CONFIGURED =
  'Пополнение временно недоступно: платёжный провайдер не настроен';

// Ours: the sandbox payment provider's pages, which must never pass for a real payment.
export const SANDBOX_TEST_PAYMENT = 'Тестовый платёж — деньги не списываются';
export const SANDBOX_HEADING = 'Тестовый платёж';
export const SANDBOX_PAY_NOTE =
  '«Оплатить» пополнит баланс без списания денег: так работает только тестовая оплата.';
export const SANDBOX_PAY = 'Оплатить';
export const SANDBOX_CANCEL = 'Отменить';
export const SANDBOX_BY_CARD = 'Оплата банковской картой';
export const SANDBOX_BY_SBP = 'Оплата через СБП';
export const SANDBOX_ORDER = 'Заказ';
export const SANDBOX_PAID = 'Платёж уже оплачен.';
export const SANDBOX_CANCELED = 'Платёж отменён.';
export const SANDBOX_REFUNDED = 'Платёж возвращён.';
export const SANDBOX_PARTIALLY_REFUNDED = 'Платёж частично возвращён.';
export const SANDBOX_EXPIRED = 'Срок оплаты истёк.';
export const SANDBOX_FINISHED = 'Платёж завершён.';
export const SANDBOX_BACK = 'Вернуться в личный кабинет';

// Error catalogue: toasts of failed requests, and a few of success
export const REQUEST_FAILED = 'Ошибка запроса';
// Ours: a call that got no answer (the network is down, or the answer never came).
export const NO_CONNECTION = 'Нет соединения с сервером. Проверьте интернет и повторите.';
// Ours: in place of a part of the page whose code could not be loaded, with a button to retry.
export const LOAD_FAILED = 'Нет соединения';
export const RETRY = 'Повторить';
export const UNKNOWN_ERROR = 'Неизвестная ошибка';
export const UNKNOWN_ERROR_OCCURRED = 'Произошла неизвестная ошибка';
export const TOKEN_INVALID = 'Недействительный токен';
// Ours: /auth after the server refused the stored session (ended from another device, a reset).
export const SESSION_ENDED = 'Сеанс завершён. Войдите снова.';
export const USER_NOT_FOUND = 'Пользователь не найден';
// Ours: a payment nobody knows (the sandbox checkout page, the provider's notifications).
export const PAYMENT_NOT_FOUND = 'Платёж не найден';
export const PROFILE_UPDATE_FAILED = 'Ошибка при обновлении профиля';
export const PAYMENT_REQUEST_FAILED = 'Ошибка при отправке запроса.';
export const SOMETHING_WENT_WRONG = 'Что-то пошло не так.';
export const LOGIN_SUCCESS = 'Успешный вход';
export const ID_COPIED = 'ID скопирован!';
export const EMAIL_NOT_FOUND = 'Почта не найдена';
export const TELEGRAM_LINK_FAILED = 'Ошибка генерации ссылки';
export const TELEGRAM_CHECK_FAILED = 'Ошибка получения 2fa';
// The product words this one in English; kept as written.
export const NO_AUTHORISATION = 'No authorisation';

// Ours: generic server answers per HTTP status (`http/error-handler.ts` in apps/server).
export const INVALID_INPUT = 'Проверьте введённые данные';
export const AUTH_REQUIRED = 'Требуется авторизация';
export const NOT_FOUND = 'Не найдено';
export const TOO_MANY_ATTEMPTS = 'Слишком много попыток, попробуйте позже';
export const SERVICE_UNAVAILABLE = 'Сервис временно недоступен. Попробуйте позже.';
export const INTERNAL_ERROR = 'Внутренняя ошибка сервера. Попробуйте позже.';
export const PAYLOAD_TOO_LARGE = 'Слишком большой запрос';
export const BAD_JSON = 'Некорректный формат запроса';
export const UNSUPPORTED_CONTENT_TYPE = 'Неподдерживаемый тип содержимого';
export const BAD_URL = 'Некорректный адрес запроса';
export const URL_TOO_LONG = 'Слишком длинный адрес запроса';

// Ours: SSO hand-off links, followed only to allow-listed sibling sites.
export const LINK_INVALID = 'Некорректная ссылка';
export const LINK_NOT_ALLOWED = 'Переход по этой ссылке запрещён';

// Ours: the code a Yandex ID sign-in brings back to /auth is refused (unknown, used, older than a
// minute, or opened in a browser other than the one that began the sign-in).
export const YANDEX_SIGN_IN_CODE_REFUSED =
  'Вход через Яндекс ID не завершён: ссылка устарела или открыта в другом браузере. Попробуйте ещё раз';

// Ours: the identity core's answers (registration, confirmation, login, codes).
export const LOGIN_FAILED = 'Неверный логин или пароль';
// Ours: the login waits after 10 wrong attempts (the same for a login no account has, so it
// reveals nothing); `{minutes}` is the wait rounded up (`loginPausedMessage` in login-paused.ts).
// The sign-in form adds the recovery link.
export const LOGIN_PAUSED =
  'Вход для этого логина приостановлен на {minutes} мин. из-за неверных попыток. Забыли пароль?';
export const LOGIN_PAUSED_RECOVERY = 'Восстановить пароль';
export const ACCOUNT_NOT_CONFIRMED =
  'Почта не подтверждена. Код подтверждения отправлен на вашу почту';
// Ours: a link a sibling site gives the portal to show (a service's «Управление») that is not
// https: (http: only beside a portal run on this machine); `javascript:` and the like never.
export const SIBLING_URL_NOT_HTTPS =
  'Ссылка должна начинаться с https:// (http:// — только для портала, запущенного локально)';
// Ours: a service's name from a sibling site shows on the customer's home and in the support
// desk: none of the characters a person's name may not hold (`isCleanName` in common.ts).
export const SIBLING_SERVICE_NAME_FORBIDDEN =
  'Название услуги содержит недопустимые символы (управляющие, меняющие направление текста или невидимые)';
// Ours: support blocked the account (the operator's tool); every sign-in is refused with it.
// The server adds where to write: «…: <SUPPORT_URL>».
export const ACCOUNT_BLOCKED = 'Аккаунт заблокирован. Напишите в поддержку';
export const USERNAME_TAKEN = 'Этот никнейм уже занят';
// Ours: letters of other scripts look like Latin ones and would make look-alike accounts.
export const USERNAME_NOT_LATIN = 'Никнейм может содержать только латинские буквы, цифры, _ . -';
// Ours: control, direction-changing and invisible characters in any name field, and a name of
// nothing but characters that render as nothing (combining marks, fillers, variation selectors).
export const NAME_FORBIDDEN_CHARACTERS = 'Имя содержит недопустимые символы';
// A code mailed for any purpose: registration, a proof of the owner, a password change.
export const CODE_SENT_TO_EMAIL = 'Код подтверждения отправлен на почту';
export const REGISTRATION_CONFIRMED = 'Почта подтверждена, добро пожаловать!';
export const LOGOUT_DONE = 'Вы вышли из аккаунта';
export const CODE_EXPIRED = 'Срок действия кода истёк. Запросите новый код';
export const CODE_ATTEMPTS_EXHAUSTED = 'Слишком много неверных попыток. Запросите новый код';

// Ours: the object storage did not take an uploaded image.
export const STORAGE_UNAVAILABLE = 'Не удалось сохранить изображение, попробуйте позже';

// Ours: a fresh proof of the owner before a change of factors (RECENT_PROOF_MINUTES).
export const PROOF_REQUIRED = 'Подтвердите, что это вы: введите пароль или код подтверждения';
export const PROOF_ACCEPTED = 'Подтверждено';
export const PROOF_ONE_ANSWER = 'Укажите что-то одно: пароль, код из приложения или код из письма';
// Ours: sibling sites, their keys and the sessions handed to them
// (docs/decisions/0010-sibling-sites-and-their-sessions.md).
export const API_KEY_INVALID = 'Неверный ключ API';
export const PORTAL_ONLY = 'Это действие доступно только в личном кабинете';
// The site a device (session) belongs to, in the devices list.
export const SITE_PORTAL = 'Личный кабинет';
export const SITE_HOSTING = 'Хостинг';
export const SITE_LAUNCHER = 'Лаунчер';
