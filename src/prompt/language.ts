/**
 * Which language to instruct the model in; the detection lives in util/ because grounding
 * (ground/) picks its date order and currency defaults by the same rule.
 */
export { detectLanguage, CJK_SHARE_FOR_ZH, type PromptLanguage } from "../util/index.js";
