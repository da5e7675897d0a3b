package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"time"
	"unicode"

	"golang.org/x/crypto/bcrypt"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"schedlab/errs"
)

// User is an account of a server started with --auth.
type User struct {
	ID        string
	Name      string
	Admin     bool
	CreatedAt time.Time
}

// Limits of accounts.
const (
	// MaxUserName is the longest user name, in bytes.
	MaxUserName = 64
	// MinPassword is the shortest password, in bytes: NIST SP 800-63B §5.1.1.2
	// asks for at least 8 characters of a memorized secret.
	MinPassword = 8
	// MaxPassword is the longest password bcrypt reads whole (72 bytes); a
	// longer one would be cut silently, so it is refused.
	MaxPassword = 72
	// SessionTTL is how long a login lasts.
	SessionTTL = 30 * 24 * time.Hour
	// bcryptCost is bcrypt's work factor: the library's default (10), about
	// 50–100 ms per check on this class of machine (OWASP's Password
	// Storage Cheat Sheet asks for at least 10).
	bcryptCost = bcrypt.DefaultCost
)

// ValidUserName checks a user name: 1–64 letters, digits, '.', '_' or '-'.
func ValidUserName(name string) error {
	if name == "" || len(name) > MaxUserName {
		return invalid("name", "must be 1 to %d characters, got %d", MaxUserName, len(name))
	}
	for _, r := range name {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-') {
			return invalid("name", "may hold letters, digits, '.', '_' and '-' only, got %q", name)
		}
	}
	return nil
}

// CreateUser stores a new account with a bcrypt hash of password. A taken
// name is errs.Conflict; a bad name or password errs.Invalid.
func (s *Store) CreateUser(ctx context.Context, name, password string, admin bool) (*User, error) {
	if err := ValidUserName(name); err != nil {
		return nil, err
	}
	if len(password) < MinPassword || len(password) > MaxPassword {
		return nil, invalid("password", "must be %d to %d bytes long, got %d", MinPassword, MaxPassword, len(password))
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcryptCost)
	if err != nil {
		return nil, errs.Wrap(errs.Internal, err)
	}
	u := &User{ID: NewID(), Name: name, Admin: admin, CreatedAt: now()}
	_, err = s.db.ExecContext(ctx, `INSERT INTO users (id, name, password_hash, admin, created_at) VALUES (?, ?, ?, ?, ?)`,
		u.ID, u.Name, string(hash), boolInt(admin), fmtTime(u.CreatedAt))
	if isUnique(err) {
		return nil, errs.New(errs.Conflict, "name", "user %q exists already", name)
	}
	if err != nil {
		return nil, dbErr(err)
	}
	return u, nil
}

// HasUsers reports whether any account exists.
func (s *Store) HasUsers(ctx context.Context) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM users)").Scan(&n)
	return n == 1, dbErr(err)
}

// dummyHash is compared against when a login names no account or its
// password is longer than MaxPassword, so a wrong name or an overlong
// password takes as long as a wrong password and names cannot be probed
// by time. It has the cost of every stored hash (bcryptCost).
// It is made at the first login, not at start: a bcrypt hash costs tens of
// milliseconds, which every command (schedlab run) would otherwise pay.
var dummyHash = sync.OnceValue(func() []byte {
	h, _ := bcrypt.GenerateFromPassword([]byte("schedlab-no-such-user"), bcryptCost)
	return h
})

// errBadLogin is the one answer to a wrong name or password.
var errBadLogin = errors.New("wrong user name or password")

// Authenticate checks a name and password; a wrong pair is errs.Invalid
// with the same message whichever of the two was wrong.
func (s *Store) Authenticate(ctx context.Context, name, password string) (*User, error) {
	var u User
	var hash, created string
	var admin int
	err := s.db.QueryRowContext(ctx, "SELECT id, name, password_hash, admin, created_at FROM users WHERE name = ?", name).
		Scan(&u.ID, &u.Name, &hash, &admin, &created)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, dbErr(err)
	}
	// Exactly one bcrypt comparison of cost bcryptCost on every path, so
	// that the answer's time says nothing of whether the name exists: an
	// unknown name, or a password longer than any stored one can be
	// (MaxPassword: CreateUser refuses them), is compared against
	// dummyHash and fails.
	against, known := []byte(hash), err == nil
	if !known || len(password) > MaxPassword {
		against = dummyHash()
	}
	if bcrypt.CompareHashAndPassword(against, []byte(password)) != nil || !known || len(password) > MaxPassword {
		return nil, &errs.Error{Kind: errs.Invalid, Field: "password", Err: errBadLogin}
	}
	u.Admin = admin == 1
	if u.CreatedAt, err = parseTime(created); err != nil {
		return nil, dbErr(err)
	}
	return &u, nil
}

// GetUserByName returns an account, or errs.NotFound.
func (s *Store) GetUserByName(ctx context.Context, name string) (*User, error) {
	return s.user(ctx, "SELECT id, name, admin, created_at FROM users WHERE name = ?", name)
}

func (s *Store) user(ctx context.Context, q string, args ...any) (*User, error) {
	var u User
	var admin int
	var created string
	err := s.db.QueryRowContext(ctx, q, args...).Scan(&u.ID, &u.Name, &admin, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, &errs.Error{Kind: errs.NotFound, Field: "user", Err: errors.New("no such user")}
	}
	if err != nil {
		return nil, dbErr(err)
	}
	u.Admin = admin == 1
	if u.CreatedAt, err = parseTime(created); err != nil {
		return nil, dbErr(err)
	}
	return &u, nil
}

// secret returns a fresh random secret: 32 bytes from crypto/rand,
// base64url without padding (43 characters), after prefix.
func secret(prefix string) string {
	var b [32]byte
	rand.Read(b[:])
	return prefix + base64.RawURLEncoding.EncodeToString(b[:])
}

func digest(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// TokenPrefix starts every API token, so a leaked one is easy to find
// (secret scanners, logs).
const TokenPrefix = "schedlab_"

// CreateSession starts a login of user and returns the cookie value; only
// its SHA-256 is stored. Expired sessions of everybody are removed.
func (s *Store) CreateSession(ctx context.Context, userID string) (string, error) {
	value := secret("")
	t := now()
	if _, err := s.db.ExecContext(ctx, "DELETE FROM sessions WHERE expires_at < ?", fmtTime(t)); err != nil {
		return "", dbErr(err)
	}
	_, err := s.db.ExecContext(ctx, "INSERT INTO sessions (token_sha256, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
		digest(value), userID, fmtTime(t), fmtTime(t.Add(SessionTTL)))
	if err != nil {
		return "", dbErr(err)
	}
	return value, nil
}

// SessionUser returns the user of a live session, or errs.NotFound.
func (s *Store) SessionUser(ctx context.Context, value string) (*User, error) {
	return s.user(ctx, `SELECT u.id, u.name, u.admin, u.created_at
		FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_sha256 = ? AND s.expires_at > ?`,
		digest(value), fmtTime(now()))
}

// DeleteSession ends a login.
func (s *Store) DeleteSession(ctx context.Context, value string) error {
	_, err := s.db.ExecContext(ctx, "DELETE FROM sessions WHERE token_sha256 = ?", digest(value))
	return dbErr(err)
}

// CreateToken makes an API token for user name and returns it; it is shown
// once, only its SHA-256 is stored.
func (s *Store) CreateToken(ctx context.Context, userName, label string) (string, error) {
	u, err := s.GetUserByName(ctx, userName)
	if err != nil {
		return "", errs.New(errs.NotFound, "user", "no user %q: create it with `schedlab user add`", userName)
	}
	tok := secret(TokenPrefix)
	_, err = s.db.ExecContext(ctx, "INSERT INTO api_tokens (token_sha256, user_id, label, created_at) VALUES (?, ?, ?, ?)",
		digest(tok), u.ID, label, fmtTime(now()))
	if err != nil {
		return "", dbErr(err)
	}
	return tok, nil
}

// TokenUser returns the user of an API token, or errs.NotFound.
func (s *Store) TokenUser(ctx context.Context, token string) (*User, error) {
	if !strings.HasPrefix(token, TokenPrefix) {
		return nil, &errs.Error{Kind: errs.NotFound, Field: "token", Err: errors.New("not a schedlab API token")}
	}
	return s.user(ctx, `SELECT u.id, u.name, u.admin, u.created_at
		FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_sha256 = ?`, digest(token))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func isUnique(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE
}
