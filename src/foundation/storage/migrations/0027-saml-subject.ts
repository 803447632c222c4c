import type { Kysely, Migration } from 'kysely';

/**
 * A SAML sign-in's subject beside the session, in the table an OpenID
 * Connect sign-in's provider session is kept in (0006-openid-connect.ts):
 * its NameID's value is the `subject`, its AuthnStatement's SessionIndex
 * the `provider_sid`, and this column the rest of the NameID (its Format,
 * NameQualifier and SPNameQualifier, as JSON), which a LogoutRequest must
 * repeat exactly (SAML Core §3.7.1, §8.3). Null for every other sign-in.
 */
export const samlSubjectMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('oidc_sessions').addColumn('subject_qualifiers', 'text').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('oidc_sessions').dropColumn('subject_qualifiers').execute();
  },
};
