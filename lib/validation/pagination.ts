import { z } from 'zod';
import { queryInteger } from './query-integer.ts';

export const MAX_PAGE_SIZE = 100;

/** Where a list's page stands: the envelope's `metadata` of a paginated answer. */
export interface PageMetadata {
  readonly page: number;
  readonly limit: number;
  readonly total: number;
}

/** `page` from 1 (no maximum) and `limit` 1-100, defaults 1 and 20, per the spec's common rules. */
export const paginationQuery = z.object({
  page: queryInteger({ min: 1 }).default(1),
  limit: queryInteger({ min: 1, max: MAX_PAGE_SIZE }).default(20),
});

export type Pagination = z.output<typeof paginationQuery>;

export const offsetOf = ({ page, limit }: Pagination): number => (page - 1) * limit;

export const pageMetadata = ({ page, limit }: Pagination, total: number): PageMetadata => ({
  page,
  limit,
  total,
});
