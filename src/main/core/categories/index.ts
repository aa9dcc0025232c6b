// Category choice, in one place: which of the user's categories an item lands in, whether
// its words came from the local parser, the LLM, a correction, a CSV import or the ledger.
export { categoryOfType, chooseCategory, withCategoryForType } from './choose';
export { CATEGORY_KEYWORDS, KeywordIndex, matchCategoryWord, type CategoryKeyword, type CategoryMatch, type CategoryRef } from './keywords';
export { matchCategory, type CategoryCandidate } from './names';
export { subCategoryFor } from './sub-category';
export { visibleCategory, type ShownCandidate } from './visible';
