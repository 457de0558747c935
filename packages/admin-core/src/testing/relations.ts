import { defineEntity, p } from '@mikro-orm/core';
import { defineController, definePlugin, Migration } from '../index.ts';

/*
 * `test/relations`: the relation manager's shapes (docs/relations.md), declared as a plugin
 * author would. A crew has members (hasMany over a nullable key: deferrable, every button) seen
 * through the members controller's list scope (secret members are out of it), and badges
 * (belongsToMany through a pivot entity with an editable `weight`). Crews belong to the admin who
 * owns them (`owner_id`, a column the form can change). A project's steps are a hasMany over a
 * key that is not nullable: managed only once the project exists.
 */

export const Crew = defineEntity({
  name: 'TestRelCrew',
  tableName: 'test_rel_crews',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(100),
    owner_id: p.integer(),
    members: () => p.oneToMany(Member).mappedBy('crew'),
    badges: () =>
      p
        .manyToMany(Badge)
        .pivotEntity(() => CrewBadge)
        .joinColumn('crew_id')
        .inverseJoinColumn('badge_id'),
  },
});

export const Member = defineEntity({
  name: 'TestRelMember',
  tableName: 'test_rel_members',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(100),
    crew: () => p.manyToOne(Crew).fieldName('crew_id').nullable(),
    is_secret: p.boolean().default(false),
    note: p.text().nullable(),
  },
});

export const Badge = defineEntity({
  name: 'TestRelBadge',
  tableName: 'test_rel_badges',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(100),
  },
});

/** The pivot of `Crew.badges`; `crew` must stay first (the owning side). */
export const CrewBadge = defineEntity({
  name: 'TestRelCrewBadge',
  tableName: 'test_rel_crew_badges',
  properties: {
    crew: () => p.manyToOne(Crew).fieldName('crew_id').primary(),
    badge: () => p.manyToOne(Badge).fieldName('badge_id').primary(),
    weight: p.integer().default(1),
  },
});

export const Project = defineEntity({
  name: 'TestRelProject',
  tableName: 'test_rel_projects',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(100),
    steps: () => p.oneToMany(Step).mappedBy('project'),
  },
});

export const Step = defineEntity({
  name: 'TestRelStep',
  tableName: 'test_rel_steps',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(100),
    project: () => p.manyToOne(Project).fieldName('project_id'),
  },
});

class RelationsInit extends Migration {
  override up(): void {
    this.addSql('create table test_rel_crews (id serial primary key, name varchar(100) not null, owner_id int not null)');
    this.addSql(`create table test_rel_members (
      id serial primary key, name varchar(100) not null,
      crew_id int null references test_rel_crews (id) on delete set null,
      is_secret boolean not null default false, note text null)`);
    this.addSql('create table test_rel_badges (id serial primary key, name varchar(100) not null)');
    this.addSql(`create table test_rel_crew_badges (
      crew_id int not null references test_rel_crews (id) on delete cascade,
      badge_id int not null references test_rel_badges (id) on delete cascade,
      weight int not null default 1,
      primary key (crew_id, badge_id))`);
    this.addSql('create table test_rel_projects (id serial primary key, name varchar(100) not null)');
    this.addSql(`create table test_rel_steps (
      id serial primary key, name varchar(100) not null,
      project_id int not null references test_rel_projects (id) on delete cascade)`);
  }
}

export const CREWS_PERMISSION = 'test.relations.crews';
const mine = ({ principal }: { principal: { admin: { isSuperuser: boolean; id: number } } }) =>
  principal.admin.isSuperuser ? undefined : { owner_id: principal.admin.id };

export const crewsController = defineController({
  name: 'crews',
  entity: Crew,
  permissions: [CREWS_PERMISSION],
  scopes: { list: mine, form: mine },
  list: { columns: { name: { label: 'Name', searchable: true, sortable: true }, owner_id: { label: 'Owner' } } },
  form: {
    fields: {
      name: { type: 'text', label: 'Name', required: true },
      owner_id: { type: 'number', label: 'Owner' },
      members: { type: 'relation-manager', label: 'Members', relation: 'members' },
      badges: { type: 'relation-manager', label: 'Badges', relation: 'badges' },
    },
  },
  relations: {
    members: {
      controller: 'test/relations/members',
      view: {
        list: {
          columns: { name: { label: 'Name', searchable: true, sortable: true }, is_secret: { label: 'Secret' } },
          recordsPerPage: 20,
          perPageOptions: [2, 20, 50],
        },
        toolbarButtons: ['create', 'update', 'delete', 'link', 'unlink'],
      },
      manageForm: {
        fields: {
          name: { type: 'text', label: 'Name', required: true },
          note: { type: 'textarea', label: 'Note' },
          // A child form's own files (docs/files.md, "Child forms").
          photo: { type: 'fileupload', label: 'Photo', mode: 'image', maxFiles: 1 },
        },
      },
      messages: { linked: 'Joined the crew.', empty: 'test.relations::no_members' },
    },
    badges: {
      view: { list: { columns: { name: { label: 'Name', searchable: true, sortable: true } } }, toolbarButtons: ['link', 'unlink'] },
      viewForm: { fields: { name: { type: 'text', label: 'Name' } } },
      pivot: { form: { fields: { weight: { type: 'number', label: 'Weight', min: 1, max: 10 } } } },
    },
  },
  hooks: {
    beforeSave(record, { principal, mode }) {
      if (mode === 'create' && record.owner_id == null) record.owner_id = principal.admin.id;
    },
  },
});

/** Members as a controller of their own: its list scope (no secret member) limits the crews' `members`. */
export const membersController = defineController({
  name: 'members',
  entity: Member,
  permissions: [CREWS_PERMISSION],
  scopes: { list: () => ({ is_secret: false }) },
  list: { columns: { name: { label: 'Name', searchable: true } } },
  form: { fields: { name: { type: 'text', label: 'Name', required: true } } },
});

export const projectsController = defineController({
  name: 'projects',
  entity: Project,
  permissions: [CREWS_PERMISSION],
  list: { columns: { name: { label: 'Name' } } },
  form: {
    fields: {
      name: { type: 'text', label: 'Name', required: true },
      steps: { type: 'relation-manager', label: 'Steps', relation: 'steps' },
    },
  },
  relations: {
    steps: {
      view: { list: { columns: { name: { label: 'Name', sortable: true } } }, toolbarButtons: ['create', 'update', 'delete'] },
      manageForm: { fields: { name: { type: 'text', label: 'Name', required: true } } },
    },
  },
});

export const relationsPlugin = definePlugin({
  vendor: 'test',
  name: 'relations',
  permissions: [{ code: CREWS_PERMISSION, label: 'Crews' }],
  entities: [Crew, Member, Badge, CrewBadge, Project, Step],
  migrations: [{ name: 'test.relations/0001-init', class: RelationsInit }],
  controllers: [crewsController, membersController, projectsController],
  strings: { en: { no_members: 'No members yet.' }, de: { no_members: 'Noch keine Mitglieder.' } },
});

export const CREWS = 'test/relations/crews';
export const PROJECTS = 'test/relations/projects';
export const RELATION_TABLES = [
  'test_rel_crews',
  'test_rel_members',
  'test_rel_badges',
  'test_rel_crew_badges',
  'test_rel_projects',
  'test_rel_steps',
];
