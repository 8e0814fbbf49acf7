import { signTbankRequest } from './token.js';

/** The fetch the client sends with: global fetch in production, `app.inject` in tests. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface TbankClientOptions {
  /** Without `/v2`: https://securepay.tinkoff.ru, or the sandbox's base. */
  baseUrl: string;
  terminalKey: string;
  password: string;
  fetch: FetchLike;
  timeoutMs?: number;
}

/** Anything that keeps an answer from being a success: network, timeout, HTTP, `Success: false`. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly providerCode?: string,
  ) {
    super(message);
  }
}

export interface TbankAnswer {
  Success: boolean;
  ErrorCode: string;
  Message?: string;
  Details?: string;
  TerminalKey?: string;
  Status?: string;
  PaymentId?: string | number;
  OrderId?: string;
  Amount?: number;
}

export interface ReceiptItem {
  Name: string;
  Price: number;
  Quantity: number;
  Amount: number;
  Tax: string;
  PaymentMethod?: string;
  PaymentObject?: string;
  /** Required by FFD 1.2 only. */
  MeasurementUnit?: string;
}

/** A 54-FZ receipt (FFD 1.05 or 1.2). Nested, so the request's `Token` does not cover it. */
export interface Receipt {
  FfdVersion?: '1.05' | '1.2';
  Email?: string;
  Phone?: string;
  Taxation: string;
  Items: ReceiptItem[];
}

export interface InitRequest {
  Amount: number;
  OrderId: string;
  Description?: string;
  Language?: 'ru' | 'en';
  PayType?: 'O' | 'T';
  NotificationURL?: string;
  SuccessURL?: string;
  FailURL?: string;
  RedirectDueDate?: string;
  DATA?: Record<string, string>;
  Receipt?: Receipt;
}

export interface InitAnswer extends TbankAnswer {
  PaymentId: string;
  PaymentURL: string;
  Status: string;
  Amount: number;
  OrderId: string;
}

export interface GetQrAnswer extends TbankAnswer {
  Data: string;
}

export interface GetStateAnswer extends TbankAnswer {
  Status: string;
  PaymentId: string;
  OrderId: string;
  Amount: number;
}

/** One payment made under an order, as CheckOrder lists it. */
export interface OrderPayment {
  PaymentId: string;
  /** Kopecks; the documentation marks it optional. */
  Amount?: number;
  Status: string;
  Success?: boolean | string;
  ErrorCode?: string | number;
  Message?: string;
}

export interface CheckOrderAnswer extends TbankAnswer {
  OrderId: string;
  Payments: OrderPayment[];
}

export interface CancelAnswer extends TbankAnswer {
  Status: string;
  OriginalAmount?: number;
  NewAmount?: number;
}

const MOSCOW_OFFSET_MS = 3 * 60 * 60_000;

/**
 * A moment in the format T-Bank documents for `RedirectDueDate` (`2016-08-31T12:28:00+03:00`):
 * Moscow time, whole seconds. Moscow has no daylight saving time, so the offset is always +03:00.
 */
export function tbankDateTime(moment: Date): string {
  const moscow = new Date(moment.getTime() + MOSCOW_OFFSET_MS).toISOString();
  return `${moscow.slice(0, 19)}+03:00`;
}

/**
 * T-Bank Internet Acquiring API v2: every method is a signed JSON POST to
 * `/v2/<Method>`. The same class talks to the sandbox, which speaks the same protocol.
 */
export class TbankClient {
  constructor(private readonly options: TbankClientOptions) {}

  get terminalKey(): string {
    return this.options.terminalKey;
  }

  init(request: InitRequest): Promise<InitAnswer> {
    return this.call<InitAnswer>(
      'Init',
      { ...request },
      (answer) => typeof answer.PaymentURL === 'string' && answer.PaymentId !== undefined,
    ).then((answer) => ({ ...answer, PaymentId: String(answer.PaymentId) }));
  }

  getQr(request: { PaymentId: string; DataType?: 'PAYLOAD' | 'IMAGE' }): Promise<GetQrAnswer> {
    return this.call<GetQrAnswer>(
      'GetQr',
      { DataType: 'PAYLOAD', ...request },
      (answer) => typeof answer.Data === 'string',
    );
  }

  getState(request: { PaymentId: string }): Promise<GetStateAnswer> {
    return this.call<GetStateAnswer>(
      'GetState',
      { ...request },
      (answer) => typeof answer.Status === 'string',
    ).then((answer) => ({ ...answer, PaymentId: String(answer.PaymentId) }));
  }

  /**
   * Every payment made under our `OrderId`: the way to find a payment whose `PaymentId` we never
   * learnt (the process stopped while waiting for Init's answer).
   */
  checkOrder(request: { OrderId: string }): Promise<CheckOrderAnswer> {
    return this.call<CheckOrderAnswer>(
      'CheckOrder',
      { ...request },
      (answer) =>
        Array.isArray(answer.Payments) &&
        answer.Payments.every((payment) => typeof payment?.Status === 'string'),
    ).then((answer) => ({
      ...answer,
      Payments: answer.Payments.map((payment) => ({
        ...payment,
        PaymentId: String(payment.PaymentId),
      })),
    }));
  }

  /**
   * Without `Amount` the whole payment is cancelled or refunded. A refund of a paid payment
   * carries the refund receipt, whose total must equal the refunded amount.
   */
  cancel(request: {
    PaymentId: string;
    Amount?: number;
    Receipt?: Receipt;
  }): Promise<CancelAnswer> {
    return this.call<CancelAnswer>(
      'Cancel',
      { ...request },
      (answer) => typeof answer.Status === 'string',
    );
  }

  private async call<T extends TbankAnswer>(
    method: string,
    fields: Record<string, unknown>,
    isComplete: (answer: T) => boolean,
  ): Promise<T> {
    const body = signTbankRequest(
      { TerminalKey: this.options.terminalKey, ...fields },
      this.options.password,
    );
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}/v2/${method}`;
    let response: Response;
    try {
      response = await this.options.fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
      });
    } catch (error) {
      throw new PaymentProviderError(`${method}: ${(error as Error).message}`);
    }
    if (!response.ok) {
      throw new PaymentProviderError(`${method}: HTTP ${response.status}`);
    }
    let answer: T;
    try {
      answer = (await response.json()) as T;
    } catch {
      throw new PaymentProviderError(`${method}: the answer is not JSON`);
    }
    if (answer?.Success !== true || String(answer.ErrorCode) !== '0') {
      throw new PaymentProviderError(
        `${method}: ${answer?.Message ?? 'refused'} ${answer?.Details ?? ''}`.trim(),
        answer?.ErrorCode === undefined ? undefined : String(answer.ErrorCode),
      );
    }
    if (!isComplete(answer)) throw new PaymentProviderError(`${method}: incomplete answer`);
    return answer;
  }
}
