import { defineActions, isPlainObject, Validation, type ErrorDetails, type StringTable } from '@cms/admin-core';
import type { IProduct } from './entities.ts';

const s = (key: string) => `acme.catalog::${key}`;

/** `price` is money in EUR with scale 2 and max 1000000 (controllers.ts). */
const PRICE_MAX_CENTS = 100_000_000n;
const MARGIN_MAX = 1000;

/** A non-negative decimal with at most `scale` places, as a number or a string, in units of 10^-scale. */
function units(value: unknown, scale: number): bigint | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return undefined;
  const match = new RegExp(`^(\\d{1,15})(?:\\.(\\d{1,${scale}}))?$`).exec(text.trim());
  if (!match) return undefined;
  return BigInt(match[1]!) * 10n ** BigInt(scale) + BigInt((match[2] ?? '').padEnd(scale, '0'));
}

/** Cents as a decimal string with 2 places: 1234n → "12.34". */
const decimal = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;

/**
 * The widget's payload: `{ margin, cost? }`. `margin` is a percentage from 0 to 1000 with at
 * most 2 places; `cost` a decimal in EUR with at most 4 places (the record's cost is used when
 * it is absent). Refusals are 422 on `payload.<key>`, like a form field.
 */
function readPayload(payload: unknown, t: (key: string) => string): { margin: bigint; cost?: bigint } {
  const details: ErrorDetails = {};
  if (!isPlainObject(payload)) throw Validation({ payload: [t(s('price_helper.payload'))] });
  for (const key of Object.keys(payload))
    if (key !== 'margin' && key !== 'cost') details[`payload.${key}`] = [t('backend::validation.unknown_key')];
  const margin = units(payload.margin, 2);
  if (margin === undefined || margin > BigInt(MARGIN_MAX) * 100n) details['payload.margin'] = [t(s('price_helper.margin'))];
  const cost = payload.cost === undefined ? undefined : units(payload.cost, 4);
  if (payload.cost !== undefined && cost === undefined) details['payload.cost'] = [t(s('price_helper.cost'))];
  if (Object.keys(details).length) throw Validation(details);
  return { margin: margin!, ...(cost !== undefined ? { cost } : {}) };
}

/** Products' actions: the `price_helper` widget field runs `suggestPrice`, which fills `price`. */
export const productActions = defineActions<IProduct>({
  widget: {
    /**
     * price = cost × (1 + margin / 100), rounded half up to cents. The cost comes from the
     * payload, else from the record (`record_id`), whose cost must then be in EUR: the price is
     * in EUR and the helper does not convert currencies.
     */
    suggestPrice: {
      run({ record, payload }, ctx) {
        const { margin, cost: sent } = readPayload(payload, ctx.t);
        let cost = sent;
        if (cost === undefined) {
          if (!record || record.cost === null || record.cost === undefined)
            throw Validation({ 'payload.cost': [ctx.t(s('price_helper.no_cost'))] });
          if (record.currency !== 'EUR') throw Validation({ 'payload.cost': [ctx.t(s('price_helper.currency'))] });
          cost = units(record.cost, 4)!;
        }
        // cost in 10^-4, margin in 10^-2 percent: cost × (10000 + margin) / 10000 in 10^-4, then to cents.
        const scaled = cost * (10_000n + margin);
        const cents = (scaled + 500_000n) / 1_000_000n;
        if (cents > PRICE_MAX_CENTS) throw Validation({ 'payload.cost': [ctx.t(s('price_helper.too_large'))] });
        const price = decimal(cents);
        return {
          fill: { price },
          message: ctx.t(s('price_helper.suggested'), { price }),
          data: { cost: `${cost / 10_000n}.${String(cost % 10_000n).padStart(4, '0')}`, margin: decimal(margin) },
        };
      },
    },
  },
});

export const actionStrings: StringTable = {
  en: {
    'price_helper.suggested': 'Suggested price: {price} EUR.',
    'price_helper.payload': 'Send an object with a margin, and a cost unless the product has one.',
    'price_helper.margin': 'The margin must be a percentage from 0 to 1000 with at most 2 decimal places.',
    'price_helper.cost': 'The cost must be an amount of 0 or more with at most 4 decimal places.',
    'price_helper.no_cost': 'Enter a cost: the product has none saved.',
    'price_helper.currency': "The product's cost is not in EUR: enter a cost in EUR.",
    'price_helper.too_large': 'The suggested price would be above the maximum price.',
  },
  de: {
    'price_helper.suggested': 'Vorgeschlagener Preis: {price} EUR.',
    'price_helper.payload': 'Senden Sie ein Objekt mit einer Marge und, falls das Produkt keinen hat, einem Einkaufspreis.',
    'price_helper.margin': 'Die Marge muss ein Prozentsatz von 0 bis 1000 mit höchstens 2 Nachkommastellen sein.',
    'price_helper.cost': 'Der Einkaufspreis muss ein Betrag von 0 oder mehr mit höchstens 4 Nachkommastellen sein.',
    'price_helper.no_cost': 'Geben Sie einen Einkaufspreis ein: Für das Produkt ist keiner gespeichert.',
    'price_helper.currency': 'Der Einkaufspreis des Produkts ist nicht in EUR: Geben Sie einen Einkaufspreis in EUR ein.',
    'price_helper.too_large': 'Der vorgeschlagene Preis läge über dem Höchstpreis.',
  },
};
