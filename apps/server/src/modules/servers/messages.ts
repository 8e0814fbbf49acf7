// Russian texts of services and the sibling API (ours).
export const INSUFFICIENT_FUNDS = 'Недостаточно средств на балансе';
export const ORDER_ID_REUSED = 'Заказ с этим номером уже оформлен с другими параметрами';
export const SERVICE_OF_ANOTHER_USER =
  'Услуга с этим идентификатором принадлежит другому пользователю';
export const SERVICE_NOT_FOUND = 'Услуга не найдена';

export const purchaseDescription = (name: string) => `Оплата услуги «${name}»`;
export const renewalDescription = (name: string) => `Продление услуги «${name}»`;
export const cashbackDescription = (name: string) => `Кэшбэк баллами за «${name}»`;
export const ORDER_NOT_FOUND = 'Заказ не найден';
export const ORDER_OF_ANOTHER_USER = 'Заказ оформлен на другого пользователя';
export const orderCancelDescription = (name: string) => `Отмена заказа «${name}»: возврат оплаты`;
export const cashbackCancelDescription = (name: string) =>
  `Отмена кэшбэка за «${name}»: заказ отменён`;
