"""Text handling for English and Chinese: tokens, marker lexicons, clause analysis."""
