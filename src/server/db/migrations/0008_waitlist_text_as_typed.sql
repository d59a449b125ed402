-- Waitlist text is stored as typed from now on (docs/decisions/0017-store-text-as-typed.md): undo the
-- HTML escaping the old sanitiser applied at rest. '&amp;' goes last, so "&amp;lt;" (someone who typed
-- "&lt;") becomes "&lt;" again, not "<".
UPDATE "waitlist_entries" SET
  "name" = replace(replace(replace(replace(replace(replace("name", '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#x27;', ''''), '&#x2F;', '/'), '&amp;', '&'),
  "reason" = replace(replace(replace(replace(replace(replace("reason", '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#x27;', ''''), '&#x2F;', '/'), '&amp;', '&')
WHERE "name" LIKE '%&%' OR "reason" LIKE '%&%';
