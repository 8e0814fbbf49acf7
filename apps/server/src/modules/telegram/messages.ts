import { USER_NOT_FOUND } from '@portal/contracts/messages';

/** What the bot says (Russian, as everything a person reads). */
export const BOT_TEXT = {
  startWithoutToken:
    'Здравствуйте! Чтобы привязать Telegram к аккаунту, откройте ссылку из раздела «Личные данные» в личном кабинете.',
  linked: (userName: string) =>
    `Telegram привязан к аккаунту ${userName}. Теперь я буду сообщать о каждом новом входе в аккаунт.`,
  alreadyLinked: (userName: string) => `Этот Telegram уже привязан к аккаунту ${userName}.`,
  askPhone: 'Поделитесь номером телефона, чтобы подключить его к аккаунту: нажмите кнопку ниже.',
  sharePhoneButton: 'Поделиться номером телефона',
  tokenUsed: 'Эта ссылка уже использована. Получите новую ссылку в личном кабинете.',
  tokenExpired: 'Срок действия ссылки истёк. Получите новую ссылку в личном кабинете.',
  tokenUnknown: 'Ссылка недействительна. Получите новую ссылку в личном кабинете.',
  telegramTaken: 'Этот Telegram уже привязан к другому аккаунту.',
  accountHasOtherTelegram: 'К этому аккаунту уже привязан другой Telegram.',
  notLinked: 'Сначала привяжите Telegram по ссылке из раздела «Личные данные» в личном кабинете.',
  notOwnContact:
    'Это не ваш номер. Нажмите кнопку «Поделиться номером телефона», чтобы отправить свой.',
  phoneConnected: (phone: string) => `Номер ${phone} подключён к аккаунту.`,
  signIn: (input: {
    userName: string;
    device: string;
    ip: string;
    when: string;
    via?: string;
    notMeUrl?: string;
  }) =>
    [
      `Новый вход в аккаунт ${input.userName}`,
      `Устройство: ${input.device}`,
      input.ip ? `IP-адрес: ${input.ip}` : undefined,
      input.via ? `Сайт: ${input.via}` : undefined,
      `Время: ${input.when}`,
      '',
      'Если это были не вы, завершите этот сеанс и смените пароль или нажмите «Это был не я»: мы завершим все сеансы и поможем сменить пароль.',
      input.notMeUrl ? `Это был не я: ${input.notMeUrl}` : undefined,
    ]
      .filter((line) => line !== undefined)
      .join('\n'),
  endSessionButton: 'Завершить этот сеанс',
  notMeButton: 'Это был не я',
  sessionEnded: 'Сеанс завершён',
  sessionAlreadyEnded: 'Этот сеанс уже завершён',
  sessionEndedNote: 'Сеанс завершён.',
} as const;

/** Server answers of the Telegram routes. */
export const TELEGRAM_MESSAGES = {
  notConfigured: 'Telegram-бот не настроен',
  alreadyLinked: 'Telegram уже привязан к аккаунту',
  unlinked: 'Telegram отвязан',
  notLinked: 'Telegram не привязан к аккаунту',
  userNotFound: USER_NOT_FOUND,
} as const;
