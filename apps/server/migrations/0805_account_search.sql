-- Support's account search (modules/accounts/account-search.ts): part of an e-mail, a username or
-- a name, and the exact identifiers that had no index. Each index checked with EXPLAIN on 100,000
-- accounts (apps/server/bench/scale-scenarios.ts measures the search there).

-- Trigrams: a `LIKE '%part%'` is answered from the index instead of reading every account.
-- PGlite loads the extension's bundle when it starts (db/database.ts, createPglite); on
-- PostgreSQL the extension is trusted, so the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- One index over the e-mail, the username and the names, lower-cased, in the order the search
-- writes them (the expression must be the same, character for character, for the planner to use
-- it): every word of a query must occur in the text, and each word is one condition on this one
-- index, so a query of several words ("петров иван", "ivan gmail") is one index scan. The fields
-- are joined by a space, which no word of a query holds, so a word never matches across two.
CREATE INDEX users_search_trgm_idx ON users USING gin (
  lower(email || ' ' || user_name || ' ' || last_name || ' ' || first_name || ' ' || middle_name)
  gin_trgm_ops
);

-- An exact phone ('+79001234567', as the Telegram bot stores it).
CREATE INDEX users_phone_idx ON users (phone) WHERE phone IS NOT NULL;

-- Newest first: a part that many accounts hold ("mail.ru") is read in this order and stops at the
-- page instead of sorting every match.
CREATE INDEX users_newest_idx ON users (created_at DESC, id DESC);

-- A payment named by the provider's id (its PaymentId): the search and the operator's tool.
CREATE INDEX payments_provider_payment_id_idx ON payments (provider_payment_id)
  WHERE provider_payment_id IS NOT NULL;
