/**
 * The user attributes an entry may fill (docs/entries.md#user-mapping). The attribute name is the
 * camelCase form of the user-table column (`user_id` -> `userId`); the table
 * here is the single source for validation, mapping and the console.
 */
export const userAttributeTypes = {
  userId: 'text',
  userName: 'text',
  email: 'text',
  mobile: 'text',
  department: 'text',
  enabled: 'boolean',
} as const;

export type UserAttribute = keyof typeof userAttributeTypes;

export const userAttributes = Object.keys(userAttributeTypes) as readonly UserAttribute[];

export function isUserAttribute(name: string): name is UserAttribute {
  return Object.hasOwn(userAttributeTypes, name);
}

/** `USER_ID` or `user_id` -> `userId`: the column-to-attribute rule. */
export function columnToAttribute(column: string): string {
  return column
    .toLowerCase()
    .replace(/_+([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/** `userId` -> `user_id`: the inverse, used to name columns in storage. */
export function attributeToColumn(attribute: UserAttribute): string {
  return attribute.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
