import {
  RECEIPT_TAXATION_TEXTS,
  RECEIPT_TYPE_TEXTS,
  RECEIPT_VAT_TEXTS,
  type ReceiptAnswer,
} from '@portal/contracts/wallet';
import { formatRussianDate, formatTime } from '@/shared/lib/format-date';
import { formatRoubles } from '@/shared/lib/format-money';
import { ExternalIcon } from './icons';
import styles from './receipt-details.module.css';

/**
 * A fiscal receipt as its register printed it: the seller, the date, the item, the fiscal numbers
 * (ФН, ФД, ФП…), the QR code and the tax service's link. Presentational: the customer's receipt
 * page (features/wallet/receipt-page.tsx) and the support desk's receipts dialog
 * (features/staff/receipts-dialog.tsx) show it. `titleId` names its heading (a page has one
 * receipt, a dialog several); `headingLevel` fits it under the screen's own headings.
 */
export function ReceiptDetails({
  receipt,
  titleId,
  headingLevel = 2,
}: {
  receipt: ReceiptAnswer;
  titleId: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const total = formatRoubles(receipt.amount);
  const rows: [string, string][] = [
    ['Продавец', receipt.seller],
    ['Дата и время', `${formatRussianDate(receipt.issuedAt)} в ${formatTime(receipt.issuedAt)}`],
    ['Признак расчёта', RECEIPT_TYPE_TEXTS[receipt.type]],
    ...(receipt.taxation
      ? [['Система налогообложения', RECEIPT_TAXATION_TEXTS[receipt.taxation] ?? receipt.taxation]]
      : []),
  ] as [string, string][];
  const fiscal: [string, string][] = [
    ['ФН', receipt.fnNumber],
    ['ФД', String(receipt.fiscalDocumentNumber)],
    ['ФП', String(receipt.fiscalDocumentAttribute)],
    ...(receipt.shiftNumber === null ? [] : [['Смена', String(receipt.shiftNumber)]]),
    ...(receipt.fiscalNumber === null ? [] : [['Чек за смену', String(receipt.fiscalNumber)]]),
    ...(receipt.ecrRegNumber ? [['РН ККТ', receipt.ecrRegNumber]] : []),
  ] as [string, string][];
  return (
    <article className={styles.receipt} data-testid="receipt" data-type={receipt.type}>
      <Heading id={titleId} className={styles.title}>
        {RECEIPT_TYPE_TEXTS[receipt.type]} · {total}
      </Heading>
      <dl className={styles.fields}>
        {rows.map(([name, value]) => (
          <Field key={name} name={name} value={value} />
        ))}
      </dl>
      <table className={styles.items}>
        <caption className={styles.caption}>Предмет расчёта</caption>
        <thead>
          <tr>
            <th scope="col">Наименование</th>
            <th scope="col">Кол-во</th>
            <th scope="col">Сумма</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>{receipt.itemName}</td>
            <td>1</td>
            <td className={styles.amount}>{total}</td>
          </tr>
        </tbody>
      </table>
      <dl className={styles.fields}>
        <Field name="Итого" value={total} isStrong />
        <Field name="Безналичными" value={total} />
        <Field name="НДС" value={RECEIPT_VAT_TEXTS[receipt.vat] ?? receipt.vat} />
        {fiscal.map(([name, value]) => (
          <Field key={name} name={name} value={value} />
        ))}
      </dl>
      <figure className={styles.qr}>
        <img
          src={`data:image/png;base64,${receipt.qrCode}`}
          alt={`QR-код для проверки чека: ${receipt.qrText}`}
          data-qr-text={receipt.qrText}
          width={164}
          height={164}
        />
        <figcaption className={styles.qrCaption}>
          Отсканируйте QR-код в приложении «Проверка чеков» или проверьте чек по его ФН, ФД и ФП на{' '}
          <a href={receipt.checkUrl} target="_blank" rel="noopener noreferrer">
            сайте ФНС
            <ExternalIcon width={14} height={14} aria-hidden="true" />
          </a>
          .
        </figcaption>
      </figure>
    </article>
  );
}

function Field({ name, value, isStrong }: { name: string; value: string; isStrong?: boolean }) {
  return (
    <div className={styles.field} data-strong={isStrong ? 'true' : undefined}>
      <dt>{name}</dt>
      <dd>{value}</dd>
    </div>
  );
}
