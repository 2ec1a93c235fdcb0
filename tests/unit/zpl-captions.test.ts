import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from '../../src/common/languages.js';
import { zplCaptions, type Translator } from '../../src/server/modules/printing/zpl-captions.js';
import { cartonLabelZpl, ENGLISH_CAPTIONS, palletLabelZpl, type CartonLabel } from '../../src/server/modules/printing/zpl.js';

/**
 * The fixed words of a ZPL label come from the printing user's language when that language writes
 * them in Latin script (a label printer's built-in font prints those), and are English otherwise.
 */
const LABEL: CartonLabel = { sscc: '106141411234567897', shipFrom: 'Main DC', shipTo: { name: 'Shop 1', lines: ['1 High St'] }, orderNo: 'SO0001', cartonNo: 2, cartonCount: 5 };

/** The text fields (^FD...^FS) of a ZPL format. */
const fields = (zpl: string) => [...zpl.matchAll(/\^FD(.*?)\^FS/g)].map((m) => m[1]);

const FRENCH: Record<string, string> = {
  'printing.label.pallet': 'Palette',
  'printing.label.shipFrom': 'Expéditeur',
  'printing.label.shipTo': 'Destinataire',
  'printing.label.order': 'Commande',
  'printing.label.sscc': 'SSCC',
  'printing.label.grossWeight': 'Poids brut',
  'printing.label.cartonOf': 'Colis {{no}} sur {{count}}',
  'printing.label.palletOf': 'Palette {{no}} sur {{count}}',
};
const french: Translator = (_language, key, params) => FRENCH[key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name]));

describe(zplCaptions.name, () => {
  it('prints English captions for English', () => {
    const zpl = cartonLabelZpl(LABEL, zplCaptions('en'));
    expect(fields(zpl)).toEqual(expect.arrayContaining(['FROM: Main DC', 'SHIP TO:', 'ORDER: SO0001', 'CARTON 2 OF 5', 'SSCC']));
    expect(fields(palletLabelZpl(LABEL, zplCaptions('en')))).toEqual(expect.arrayContaining(['PALLET', 'PALLET 2 OF 5']));
  });

  it('prints a Latin-script language in capitals, accents included, UTF-8 under ^CI28', () => {
    const captions = zplCaptions('en', french);
    const carton = cartonLabelZpl(LABEL, captions);
    expect(carton).toContain('^CI28');
    expect(fields(carton)).toEqual(expect.arrayContaining(['EXPÉDITEUR: Main DC', 'DESTINATAIRE:', 'COMMANDE: SO0001', 'COLIS 2 SUR 5', 'SSCC']));
    expect(fields(palletLabelZpl(LABEL, captions))).toEqual(expect.arrayContaining(['PALETTE', 'PALETTE 2 SUR 5']));
    expect(carton).not.toContain('SHIP TO');
  });

  it('falls back to English for Thai, Chinese, Japanese and Korean, whose letters a printer font may lack', () => {
    const nonLatin: Language[] = ['th', 'zh', 'zh_tw', 'jp', 'kor'];
    expect([...nonLatin, 'en'].sort()).toEqual([...LANGUAGES].sort());
    for (const language of nonLatin) {
      expect(zplCaptions(language), language).toBe(ENGLISH_CAPTIONS);
      const zpl = palletLabelZpl(LABEL, zplCaptions(language));
      // Nothing on the label but Latin script (the ship-to here is Latin too).
      expect(zpl, language).toMatch(/^[\p{Script=Latin}\p{Script=Common}]*$/u);
    }
  });

  it('falls back to English when any one caption is not Latin', () => {
    const mixed: Translator = (language, key, params) => (key === 'printing.label.order' ? '注文' : french(language, key, params));
    expect(zplCaptions('en', mixed)).toBe(ENGLISH_CAPTIONS);
  });
});
