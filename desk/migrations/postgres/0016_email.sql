-- A person's email address (lower case), by which an identity provider's
-- verified email signs them in (--oidc-issuer); one person each.
ALTER TABLE people ADD COLUMN email TEXT;
CREATE UNIQUE INDEX people_email ON people (email);
