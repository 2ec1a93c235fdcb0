import { useEffect, useState } from 'react';
import { AutoComplete, Button, Input } from 'antd';
import type { LocationLookupItem, LookupAnswer, SkuLookupItem } from '../../common/inventory-api';
import { api } from '../../app/public';
import { ScanInput } from '../inbound/handheld';

/**
 * The type-ahead of the inventory screens' location and SKU fields: as the user types, the
 * locations of the session's warehouse or the SKUs of its project whose code starts with the text
 * are offered with their names; picking one enters its code. What is typed or scanned and entered
 * with Enter is taken as it is (a barcode, a GS1 label or an LPN names no code).
 */

export type LookupKind = 'location' | 'sku';

/** A match of a look-up: the code it enters and the name shown beside it. */
export interface LookupMatch {
  code: string;
  name: string | null;
}

const LOOKUP_PATHS: Record<LookupKind, string> = { location: '/inventory/location', sku: '/inventory/sku' };
/** The longest code each look-up takes; longer text (a scanned label) is no code to look up. */
const LONGEST: Record<LookupKind, number> = { location: 40, sku: 60 };
/** Typing pauses this long before the server is asked, so a scanner's burst asks nothing. */
const PAUSE_MS = 150;

/**
 * The matches of the text typed; `only` keeps those codes alone (the locations of a count ticket).
 * A refused or failed look-up offers nothing: the field still takes what is typed.
 */
export function useLookupMatches(kind: LookupKind, text: string, only?: readonly string[]): LookupMatch[] {
  const [matches, setMatches] = useState<LookupMatch[]>([]);
  const onlyKey = only ? only.join('\u0000') : null;
  useEffect(() => {
    const typed = text.trim();
    if (typed === '' || typed.length > LONGEST[kind]) {
      setMatches([]);
      return;
    }
    let live = true;
    const timer = window.setTimeout(() => {
      api<LookupAnswer<LocationLookupItem | SkuLookupItem>>(LOOKUP_PATHS[kind], { query: { code: typed }, quiet: true })
        .then((answer) => {
          if (!live) return;
          const kept = onlyKey === null ? answer.items : answer.items.filter((item) => onlyKey.split('\u0000').includes(item.code));
          setMatches(kept.map((item) => ({ code: item.code, name: item.description })));
        })
        .catch(() => {
          if (live) setMatches([]);
        });
    }, PAUSE_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [kind, text, onlyKey]);
  return matches;
}

/** How many matches a handheld shows under its scan field (big touch targets on a small screen). */
const HANDHELD_MATCHES = 6;

/**
 * The handheld's scan field with a look-up: it keeps the focus as the scan field does, Enter
 * submits the text as it is, and the matches of what is typed are listed under it as buttons; a
 * tap on one submits its code.
 */
export function LookupScanField(props: { label: string; onScan: (text: string) => void; testId: string; lookup: LookupKind; only?: readonly string[]; onEscape?: () => void }) {
  const [value, setValue] = useState('');
  const matches = useLookupMatches(props.lookup, value, props.only);
  const submit = (text: string) => {
    if (text.trim() === '') return;
    props.onScan(text);
    setValue('');
  };
  return (
    <div>
      <ScanInput label={props.label} testId={props.testId} onScan={props.onScan} onEscape={props.onEscape} value={value} onChange={setValue} />
      {value.trim() !== '' && <LookupMatches testId={props.testId} matches={matches} onChoose={submit} />}
    </div>
  );
}

/** The matches of a handheld's look-up under its scan field, as big buttons; a tap chooses the code. */
export function LookupMatches(props: { testId: string; matches: LookupMatch[]; onChoose: (code: string) => void }) {
  if (props.matches.length === 0) return null;
  return (
    <div data-testid={`${props.testId}-matches`} style={{ display: 'flex', flexDirection: 'column', gap: 4, marginTop: 4 }}>
      {props.matches.slice(0, HANDHELD_MATCHES).map((match) => (
        <Button
          key={match.code}
          block
          data-testid="lookup-match"
          data-code={match.code}
          style={{ minHeight: 44, fontSize: 16, height: 'auto', whiteSpace: 'normal', textAlign: 'left' }}
          onClick={() => props.onChoose(match.code)}
        >
          <strong>{match.code}</strong>
          {match.name ? ` · ${match.name}` : ''}
        </Button>
      ))}
    </div>
  );
}

/** A desk screen's location or SKU field: a text input whose matches drop down as the user types. */
export function LookupInput(props: { lookup: LookupKind; value: string; onChange: (text: string) => void; placeholder: string; testId: string; width: number }) {
  const matches = useLookupMatches(props.lookup, props.value);
  return (
    <AutoComplete
      value={props.value}
      onChange={(text: string) => props.onChange(text)}
      // Enter keeps what is typed unless a match was chosen with the arrow keys.
      defaultActiveFirstOption={false}
      options={matches.map((match) => ({
        value: match.code,
        label: (
          <span data-testid="lookup-option" data-code={match.code}>
            <strong>{match.code}</strong>
            {match.name ? ` · ${match.name}` : ''}
          </span>
        ),
      }))}
      style={{ width: props.width }}
      popupMatchSelectWidth={Math.max(props.width, 260)}
    >
      <Input placeholder={props.placeholder} data-testid={props.testId} />
    </AutoComplete>
  );
}
