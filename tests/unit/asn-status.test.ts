import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/common/errors.js';
import { ASN_STATUSES, ASN_TRANSITIONS, assertClosable, assertTransition, canTransition, statusFromTotals } from '../../src/server/modules/inbound/asn-status.js';

function codeOf(work: () => void): string | undefined {
  try {
    work();
    return undefined;
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
}

describe('ASN status table', () => {
  it('knows the spec statuses plus new, and nothing leaves a terminal status', () => {
    expect([...ASN_STATUSES]).toEqual(['new', 'partial_received', 'received', 'partial_putaway', 'putaway', 'cancelled', 'deleted', 'closed']);
    for (const terminal of ['cancelled', 'deleted', 'closed'] as const) expect(ASN_TRANSITIONS[terminal]).toEqual([]);
  });

  it('walks new -> partial received -> received -> partial putaway -> putaway -> closed', () => {
    const path = ['new', 'partial_received', 'received', 'partial_putaway', 'putaway', 'closed'] as const;
    for (let i = 1; i < path.length; i += 1) expect(canTransition(path[i - 1], path[i])).toBe(true);
  });

  it('cancels and deletes only a new ASN, with the delete-or-cancel message; cancel is never undone', () => {
    expect(codeOf(() => assertTransition('new', 'cancelled'))).toBeUndefined();
    expect(codeOf(() => assertTransition('new', 'deleted'))).toBeUndefined();
    expect(codeOf(() => assertTransition('partial_received', 'cancelled'))).toBe('DELETE_CANCEL_NOT_ALLOWED');
    expect(codeOf(() => assertTransition('received', 'deleted'))).toBe('DELETE_CANCEL_NOT_ALLOWED');
    for (const to of ASN_STATUSES) expect(canTransition('cancelled', to)).toBe(false);
  });

  it('refuses any other transition with the status error', () => {
    expect(codeOf(() => assertTransition('new', 'putaway'))).toBe('ORDER_STATUS_ERROR');
    expect(codeOf(() => assertTransition('received', 'new'))).toBe('ORDER_STATUS_ERROR');
    expect(codeOf(() => assertTransition('closed', 'received'))).toBe('ORDER_STATUS_ERROR');
    expect(codeOf(() => assertTransition('nonsense', 'received'))).toBe('ORDER_STATUS_ERROR');
  });

  it('closing needs putaway: refused while received stock waits for putaway', () => {
    expect(codeOf(() => assertClosable('received', { expected: 10, received: 10, putaway: 0 }))).toBe('ORDER_STATUS_ERROR');
    expect(codeOf(() => assertClosable('partial_putaway', { expected: 10, received: 6, putaway: 4 }))).toBe('ORDER_STATUS_ERROR');
    expect(codeOf(() => assertClosable('partial_putaway', { expected: 10, received: 6, putaway: 6 }))).toBeUndefined();
    expect(codeOf(() => assertClosable('putaway', { expected: 10, received: 10, putaway: 10 }))).toBeUndefined();
  });

  it('derives the quantity status from the line totals', () => {
    expect(statusFromTotals({ expected: 10, received: 0, putaway: 0 })).toBe('new');
    expect(statusFromTotals({ expected: 10, received: 4, putaway: 0 })).toBe('partial_received');
    expect(statusFromTotals({ expected: 10, received: 10, putaway: 0 })).toBe('received');
    expect(statusFromTotals({ expected: 10, received: 10, putaway: 3 })).toBe('partial_putaway');
    expect(statusFromTotals({ expected: 10, received: 10, putaway: 10 })).toBe('putaway');
  });
});
