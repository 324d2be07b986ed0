import { studyValues } from './fixtures.ts';
import { ACTORS, tableCells, type Allowed, type RowCells, type TableCells } from './matrix.ts';
import { email, unique } from './unique.ts';

export const EVERYONE: Allowed = ACTORS;
export const ADMIN: Allowed = ['admin'];
/** The organization that owns the row, and admins. */
export const OWNER_ORG: Allowed = ['businessA', 'admin'];
/** The tester the row belongs to, the organization of the study, and admins. */
export const ORG_AND_TESTER: Allowed = ['businessA', 'testerWith', 'admin'];
export const TESTER: Allowed = ['testerWith', 'admin'];

/**
 * A row the system door writes (the rules say "written by the system"): under row-level security
 * only admins change or remove it; `select` names who reads it.
 */
export const systemRow = (row: Omit<RowCells, 'update' | 'delete'>): RowCells => ({
  ...row,
  update: ADMIN,
  delete: ADMIN,
});

export const CORE_TABLES: readonly TableCells[] = [
  tableCells({
    table: 'organizations',
    rule: 'organizations: seen by their members, changed by their businesses, created and removed by admins',
    rows: [
      {
        key: (f) => ({ id: f.organizationA }),
        touch: 'name',
        select: OWNER_ORG,
        update: OWNER_ORG,
        delete: ADMIN,
      },
    ],
    insert: {
      allowed: ADMIN,
      row: (into) => into.values({ name: unique('Org') }),
    },
  }),
  tableCells({
    table: 'users',
    rule: 'users: a user sees and edits themself and sees the members of their organization; admins manage accounts',
    rows: [
      {
        key: (f) => ({ id: f.actors.businessA.sub }),
        touch: 'display_name',
        select: OWNER_ORG,
        update: OWNER_ORG,
        delete: ADMIN,
      },
    ],
    insert: {
      allowed: ADMIN,
      row: (into) => into.values({ email: email('new'), role: 'tester' }),
    },
  }),
  tableCells({
    table: 'organization_memberships',
    rule: 'organization memberships: seen by the member and their organization, managed by admins',
    rows: [
      systemRow({
        key: (f) => ({ organization_id: f.organizationA, user_id: f.actors.businessA.sub }),
        touch: 'member_role',
        select: OWNER_ORG,
      }),
    ],
    insert: {
      allowed: ADMIN,
      row: (into, f) => into.values({ organization_id: f.organizationA, user_id: f.invitee }),
    },
  }),
  tableCells({
    table: 'studies',
    rule: 'studies: readable by members of the owning organization and by testers with a non-cancelled session; written by its business, removed by it only while draft',
    rows: [
      {
        key: (f) => ({ id: f.study }),
        touch: 'title',
        select: ORG_AND_TESTER,
        update: OWNER_ORG,
        delete: ADMIN,
      },
    ],
    insert: {
      allowed: OWNER_ORG,
      row: (into, f) => into.values(studyValues(f.organizationA, 'draft')),
    },
  }),
  tableCells({
    table: 'study_tasks',
    rule: 'study tasks: follow the visibility of their study, written by its business until the study has sessions, then by nobody',
    rows: [
      { key: (f) => ({ id: f.task }), touch: 'title', select: ORG_AND_TESTER, update: [], delete: [] },
      {
        key: (f) => ({ id: f.draftTask }),
        touch: 'title',
        select: OWNER_ORG,
        update: OWNER_ORG,
        delete: OWNER_ORG,
      },
    ],
    insert: {
      allowed: OWNER_ORG,
      row: (into, f) =>
        into.values({
          study_id: f.draftStudy,
          position: 2,
          title: 'Confirm',
          description: 'Confirm the order',
        }),
    },
  }),
  tableCells({
    table: 'study_variants',
    rule: 'study variants: follow the visibility of their study, written by its business',
    rows: [
      {
        key: (f) => ({ id: f.variant }),
        touch: 'label',
        select: ORG_AND_TESTER,
        update: OWNER_ORG,
        delete: OWNER_ORG,
      },
    ],
    insert: {
      allowed: OWNER_ORG,
      row: (into, f) =>
        into.values({
          study_id: f.study,
          position: 2,
          label: 'B',
          description: 'New checkout',
          split_ratio: '0.5',
        }),
    },
  }),
];
