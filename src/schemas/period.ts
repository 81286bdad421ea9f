import Type, { type Static } from 'typebox';
import { DateString, Id, NonEmpty, Nullable, Timestamp } from './common.js';

export const Period = Type.Object({
  id: Id,
  name: Type.String(),
  start_date: DateString,
  end_date: DateString,
  status: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
  closed_at: Nullable(Timestamp),
  closed_by: Nullable(Id),
  closing_entry_id: Nullable(Id),
  created_at: Timestamp,
});
export type PeriodView = Static<typeof Period>;

export const CreatePeriodBody = Type.Object({
  name: NonEmpty('Display name', 200),
  start_date: DateString,
  end_date: DateString,
}, { additionalProperties: false });
export type CreatePeriodInput = Static<typeof CreatePeriodBody>;

export const CloseQuery = Type.Object({
  preview: Type.Optional(Type.Boolean({ description: 'true: return the closing entry without committing anything' })),
}, { additionalProperties: false });
