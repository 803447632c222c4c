export type { BuiltInPlaceholder, PlaceholderAdjustments, TemplateKind } from './placeholders.js';
export {
  allowedPlaceholders,
  builtInPlaceholders,
  isBuiltInPlaceholder,
  placeholderMatrix,
  templateKinds,
} from './placeholders.js';
export { percentEncode } from './percent-encode.js';
export { percentDecode } from './percent-decode.js';
export type {
  CompileOptions,
  CompiledTemplate,
  DecodedPart,
  PlaceholderPart,
  PostParameter,
  TemplatePart,
  TemplateResult,
} from './types.js';
export { compileTemplate } from './compile.js';
export type { PlaceholderValues } from './render.js';
export { renderPostParameters, renderUrl } from './render.js';
export type { CompiledHeader } from './header-template.js';
export { compileHeaderTemplate, renderHeaderValue } from './header-template.js';
