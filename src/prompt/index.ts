/**
 * Prompts for extraction: the ChatML template of MNN-Pocket, the schema description and the
 * language choice. Produces strings and segments (control tokens apart from text) only;
 * tokenization belongs to the vocabulary (tokens/plain-text.ts).
 */
export { buildPrompt, systemPrompt, type Prompt, type PromptExample, type PromptOptions } from "./build.js";
export { describeSchema } from "./describe-schema.js";
export { MAX_FEEDBACK_PROBLEMS, feedbackText, type Feedback, type FeedbackProblem } from "./feedback.js";
export { detectLanguage, type PromptLanguage } from "./language.js";
export { ASSISTANT_OPEN, IM_END, IM_START, chatTurns, joinSegments } from "./chatml.js";
