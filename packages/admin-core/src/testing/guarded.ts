import { defineEntity, p } from '@mikro-orm/core';
import { defineController, definePlugin, Migration } from '../index.ts';

/*
 * `test/guarded`: the field rules of the file and relation routes (docs/files.md, "Routes";
 * docs/relations.md, "Permissions"), as a plugin author would declare them. A vault has
 *  - `scans`, a read-only fileupload (files attached by code, shown, never changed by an admin);
 *  - `drafts`, a fileupload of the create form only (`context: 'create'`);
 *  - `keys`, a relation-manager of the update form only (`context: 'update'`);
 *  - `seals`, a belongsToMany whose related controller (named) needs the seals permission;
 *  - `guards`, a read-only hasMany whose entity's only controller needs the seals permission too
 *    (not named by the relation: any controller over the entity counts).
 */

export const Vault = defineEntity({
  name: 'TestGuardVault',
  tableName: 'test_guard_vaults',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(100),
    keys: () => p.oneToMany(VaultKey).mappedBy('vault'),
    guards: () => p.oneToMany(Guard).mappedBy('vault'),
    seals: () => p.manyToMany(Seal).pivotTable('test_guard_vault_seals').joinColumn('vault_id').inverseJoinColumn('seal_id'),
  },
});

export const VaultKey = defineEntity({
  name: 'TestGuardKey',
  tableName: 'test_guard_keys',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(100),
    vault: () => p.manyToOne(Vault).fieldName('vault_id').nullable(),
  },
});

export const Guard = defineEntity({
  name: 'TestGuardGuard',
  tableName: 'test_guard_guards',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(100),
    vault: () => p.manyToOne(Vault).fieldName('vault_id').nullable(),
  },
});

export const Seal = defineEntity({
  name: 'TestGuardSeal',
  tableName: 'test_guard_seals',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(100),
  },
});

class GuardedInit extends Migration {
  override up(): void {
    this.addSql('create table test_guard_vaults (id serial primary key, name varchar(100) not null)');
    for (const table of ['test_guard_keys', 'test_guard_guards'])
      this.addSql(`create table ${table} (
        id serial primary key, name varchar(100) not null,
        vault_id int null references test_guard_vaults (id) on delete set null)`);
    this.addSql('create table test_guard_seals (id serial primary key, name varchar(100) not null)');
    this.addSql(`create table test_guard_vault_seals (
      vault_id int not null references test_guard_vaults (id) on delete cascade,
      seal_id int not null references test_guard_seals (id) on delete cascade,
      primary key (vault_id, seal_id))`);
  }
}

export const VAULTS_PERMISSION = 'test.guarded.vaults';
/** The stronger permission: seals and guards are managed by those who hold it. */
export const SEALS_PERMISSION = 'test.guarded.seals';

const nameList = { columns: { name: { label: 'Name', searchable: true, sortable: true } } };

export const vaultsController = defineController({
  name: 'vaults',
  entity: Vault,
  permissions: [VAULTS_PERMISSION],
  list: nameList,
  form: {
    fields: {
      name: { type: 'text', label: 'Name', required: true },
      scans: { type: 'fileupload', label: 'Scans', mode: 'file', readOnly: true },
      drafts: { type: 'fileupload', label: 'Drafts', mode: 'file', context: 'create' },
      keys: { type: 'relation-manager', label: 'Keys', relation: 'keys', context: 'update' },
      seals: { type: 'relation-manager', label: 'Seals', relation: 'seals' },
      guards: { type: 'relation-manager', label: 'Guards', relation: 'guards', readOnly: true },
    },
  },
  relations: {
    keys: {
      view: { list: nameList, toolbarButtons: ['create', 'update', 'delete', 'link', 'unlink'] },
      manageForm: { fields: { name: { type: 'text', label: 'Name', required: true } } },
    },
    seals: { controller: 'test/guarded/seals', view: { list: nameList, toolbarButtons: ['link', 'unlink'] } },
    guards: {
      view: { list: nameList, toolbarButtons: ['create', 'update', 'delete', 'link', 'unlink'] },
      manageForm: {
        fields: {
          name: { type: 'text', label: 'Name', required: true },
          badge: { type: 'fileupload', label: 'Badge', mode: 'file', maxFiles: 1 },
        },
      },
    },
  },
});

export const sealsController = defineController({
  name: 'seals',
  entity: Seal,
  permissions: [SEALS_PERMISSION],
  list: nameList,
  form: { fields: { name: { type: 'text', label: 'Name', required: true } } },
});

export const guardsController = defineController({
  name: 'guards',
  entity: Guard,
  permissions: [SEALS_PERMISSION],
  list: nameList,
  form: { fields: { name: { type: 'text', label: 'Name', required: true } } },
});

export const guardedPlugin = definePlugin({
  vendor: 'test',
  name: 'guarded',
  permissions: [
    { code: VAULTS_PERMISSION, label: 'Vaults' },
    { code: SEALS_PERMISSION, label: 'Seals' },
  ],
  entities: [Vault, VaultKey, Guard, Seal],
  migrations: [{ name: 'test.guarded/0001-init', class: GuardedInit }],
  controllers: [vaultsController, sealsController, guardsController],
});

export const VAULTS = 'test/guarded/vaults';
export const GUARDED_TABLES = ['test_guard_vaults', 'test_guard_keys', 'test_guard_guards', 'test_guard_seals', 'test_guard_vault_seals'];
