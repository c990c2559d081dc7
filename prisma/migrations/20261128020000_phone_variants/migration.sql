-- A Brazilian mobile with and without its ninth digit, as packages/core phoneVariants: WhatsApp may
-- report a contact's number without it, so a contact who opted out through a campaign's end_dnd
-- (stored with the number WhatsApp gave) must still match the subscriber imported with it (issue 14 item 8).
CREATE OR REPLACE FUNCTION atende_phone_variants(phone text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN phone ~ '^\+55[0-9]{2}9[0-9]{8}$' THEN ARRAY[phone, '+55' || substr(phone, 4, 2) || substr(phone, 7)]
    WHEN phone ~ '^\+55[0-9]{2}[6-9][0-9]{7}$' THEN ARRAY[phone, '+55' || substr(phone, 4, 2) || '9' || substr(phone, 6)]
    ELSE ARRAY[phone]
  END
$$;
