export type { UserAttribute } from './attributes.js';
export {
  attributeToColumn,
  columnToAttribute,
  isUserAttribute,
  userAttributeTypes,
  userAttributes,
} from './attributes.js';
export type { AttributeValue } from './coerce.js';
export { coerceAttribute } from './coerce.js';
export type { MappedUser } from './mapped-user.js';
export type { AttributeMapping } from './map-user.js';
export { mapUser } from './map-user.js';
export type { UserIdScope } from './user-id-scope.js';
export { scopedUserId, userIdScopes } from './user-id-scope.js';
export { presentMappedUser, presentMappingLine } from './present-mapping.js';
