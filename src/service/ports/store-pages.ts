/** Keyset paging, as every store's list reads answer it. */
export type Keyset = readonly (string | number)[];

export interface PageRequest {
  limit: number;
  after?: Keyset | undefined;
}

export interface StorePage<T> {
  items: T[];
  /** The keyset of the last item, when more rows follow. */
  next: Keyset | undefined;
}
