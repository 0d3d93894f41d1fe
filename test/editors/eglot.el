;;; eglot.el --- headless Emacs with eglot against the BabelQueue language server  -*- lexical-binding: t -*-
;; Registers the server in `eglot-server-programs' as a user's init file would, opens fixtures of
;; the workspace and goes through Emacs's own commands, as a user's keys would:
;;   * the diagnostics flymake holds (`flymake-diagnostics'), and those the project's listing
;;     (`flymake-show-project-diagnostics') shows, unvisited fixtures included,
;;   * completion with `completion-at-point-functions' (eglot's capf) inside the URN: the
;;     completions of the table it returns for the text before point,
;;   * hover through eldoc: `eldoc-documentation-functions' (eglot's hover function) and the text
;;     it hands eldoc,
;;   * the quick fix with `eglot-code-actions' called as a command: the titles it offers (read
;;     with `completing-read', which picks "Remove forbidden key"), the edit applied to the
;;     buffer, and the diagnostics flymake holds for the edited buffer,
;;   * a schema file made outside Emacs in a folder eglot does not watch (made after it registered
;;     its watchers): the registry.json that names it, as listed after a save; and a registry.json
;;     made in a folder that held only a folder then: the fixture below it, as listed after a save;
;;     and a schema file rewritten in a folder of git-ignored files (eglot lists no ignored file,
;;     so it watches no such folder): the fixture its registry checks, as listed after a save.
;; Writes what Emacs saw to $BABELQ_OUT as JSON; a step that times out is named.
;;   BABELQ_SERVER=<…/babelq-language-server> BABELQ_WORKSPACE=<dir> BABELQ_OUT=<file> \
;;     emacs --batch -l test/editors/eglot.el
(require 'package)
(package-initialize)
(require 'eglot)
(require 'eldoc)
(require 'json)
(require 'cl-lib)

(defvar babelq-server (getenv "BABELQ_SERVER"))
(defvar babelq-root (file-name-as-directory (getenv "BABELQ_WORKSPACE")))
(defvar babelq-out (getenv "BABELQ_OUT"))
(defvar babelq-wait (/ (string-to-number (or (getenv "BABELQ_WAIT_MS") "15000")) 1000.0))
(defvar babelq-seen (list (cons 'editor (format "emacs %s, eglot %s" emacs-version
                                                  (let ((library (or (locate-library "eglot") "")))
                                                    (if (string-match "eglot-\\([0-9.]+\\)/" library) (match-string 1 library) library))))))

;; What a user adds to their init file: a mode for *.babel.json and the server for it.
(define-derived-mode babelq-envelope-mode js-mode "BabelQ")
(add-to-list 'auto-mode-alist '("\\.babel\\.json\\'" . babelq-envelope-mode))
(add-to-list 'eglot-server-programs `(babelq-envelope-mode . (,babelq-server "--stdio")))

(defun babelq-see (key value) (push (cons key value) babelq-seen))

;; How many diagnostics reports eglot handed flymake: a fixed buffer's diagnostics are those of a
;; report that came after the fix (until then flymake shows the old ones, moved with the text).
(defvar babelq-reports 0)
(advice-add 'eglot--report-to-flymake :after (lambda (&rest _) (setq babelq-reports (1+ babelq-reports))))

(defun babelq-wait-for (predicate what)
  "Runs the event loop until PREDICATE holds; signals an error naming WHAT after the wait."
  (let ((deadline (+ (float-time) babelq-wait)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (unless (funcall predicate) (error "No %s within %s s" what babelq-wait))))

(defun babelq-open (path)
  (find-file (expand-file-name path babelq-root))
  (unless (eglot-current-server) (apply #'eglot (eglot--guess-contact)))
  (babelq-wait-for (lambda () (eglot-managed-p)) "eglot-managed buffer")
  (current-buffer))

(defun babelq-goto (line character)
  "Point at 0-based LINE and CHARACTER."
  (goto-char (point-min))
  (forward-line line)
  (forward-char character))

(defun babelq-diagnostics ()
  "Flymake's diagnostics of the current buffer as code, 0-based line and character."
  (vconcat
   (mapcar (lambda (d)
             (let* ((lsp (alist-get 'eglot-lsp-diag (flymake-diagnostic-data d)))
                    (start (save-excursion (goto-char (flymake-diagnostic-beg d)) (cons (1- (line-number-at-pos)) (current-column)))))
               `((code . ,(or (plist-get lsp :code) (flymake-diagnostic-text d))) (line . ,(car start)) (character . ,(cdr start))
                 (type . ,(symbol-name (flymake-diagnostic-type d))) (text . ,(flymake-diagnostic-text d)))))
           (flymake-diagnostics))))

(defun babelq-project-diagnostics ()
  "What `flymake-show-project-diagnostics' lists: file, code, 0-based line and character of each.
A visited file's diagnostics are in its buffer; an unvisited one's, in
`flymake-list-only-diagnostics', where eglot puts them with their line and
column (1-based) instead of positions."
  (vconcat
   (mapcar (lambda (d)
             (let* ((locus (flymake-diagnostic-buffer d))
                    (beg (flymake-diagnostic-beg d))
                    (start (if (consp beg)
                               (cons (1- (car beg)) (1- (cdr beg)))
                             (with-current-buffer locus (save-excursion (goto-char beg) (cons (1- (line-number-at-pos)) (current-column))))))
                    (text (flymake-diagnostic-text d)))
               `((file . ,(file-relative-name (if (bufferp locus) (buffer-file-name locus) locus) babelq-root))
                 ;; eglot writes "source [code]: message".
                 (code . ,(if (string-match "\\[\\([^]]+\\)\\]" text) (match-string 1 text) text))
                 (line . ,(car start)) (character . ,(cdr start)))))
           (flymake--project-diagnostics))))

(defun babelq-has-finding (code line character)
  (cl-some (lambda (d) (and (equal (alist-get 'code d) code) (= (alist-get 'line d) line) (= (alist-get 'character d) character)))
           (babelq-diagnostics)))

(condition-case failure
    (progn
      ;; Diagnostics, as flymake holds them.
      (babelq-open "bad/contract.babel.json")
      (babelq-wait-for (lambda () (flymake-diagnostics)) "flymake diagnostics for bad/contract.babel.json")
      (let ((diagnostics (babelq-diagnostics)))
        (babelq-see 'diagnostics diagnostics)
        ;; The fixtures nobody visited: eglot keeps their diagnostics in
        ;; `flymake-list-only-diagnostics', which the project's listing shows. Taken once the
        ;; unvisited bad/data.babel.json is there and the list has not changed for 0.5 s.
        (let ((data (expand-file-name "bad/data.babel.json" babelq-root))
              (last nil) (steady-since (float-time)))
          (babelq-wait-for (lambda ()
                             (unless (equal last flymake-list-only-diagnostics)
                               (setq last flymake-list-only-diagnostics steady-since (float-time)))
                             (and (cdr (assoc data flymake-list-only-diagnostics)) (> (- (float-time) steady-since) 0.5)))
                           "diagnostics for the unvisited bad/data.babel.json")
          (babelq-see 'workspace (babelq-project-diagnostics)))
        ;; The quick fix of the forbidden "timestamp": eglot-code-actions as a command on its
        ;; line, the action read with completing-read, the edit applied to the buffer.
        (let ((forbidden (car (sort (cl-remove-if-not (lambda (d) (equal (alist-get 'code d) "forbidden-key")) (append diagnostics nil))
                                    (lambda (a b) (< (alist-get 'line a) (alist-get 'line b))))))
              (lines-before (count-lines (point-min) (point-max)))
              offered reports-at-fix)
          (unless forbidden (error "No forbidden-key diagnostic to fix"))
          (babelq-goto (alist-get 'line forbidden) (alist-get 'character forbidden))
          (cl-letf (((symbol-function 'completing-read)
                     (lambda (_prompt collection &rest _)
                       (setq offered (mapcar #'car collection))
                       (or (cl-find-if (lambda (title) (string-prefix-p "Remove forbidden key \"" title)) offered)
                           (car offered)))))
            ;; A key, not a mouse click, chose the command: eglot reads the action with completing-read.
            (let ((last-nonmenu-event ?\r))
              (eglot-code-actions (line-beginning-position) (line-end-position) nil t)))
          (babelq-see 'codeActions (vconcat offered))
          (setq reports-at-fix babelq-reports)
          (babelq-wait-for (lambda () (< (count-lines (point-min) (point-max)) lines-before)) "the quick fix applied to the buffer")
          ;; eglot sends a buffer's changes from an idle timer, and batch Emacs is never idle: run
          ;; what that timer runs.
          (eglot--signal-textDocument/didChange)
          (babelq-see 'fixedText (buffer-substring-no-properties (point-min) (point-max)))
          (babelq-wait-for (lambda () (and (> babelq-reports reports-at-fix) (flymake-diagnostics)
                                            (not (babelq-has-finding "forbidden-key" (alist-get 'line forbidden) (alist-get 'character forbidden)))))
                           "the diagnostics of the fixed buffer")
          (babelq-see 'diagnosticsAfterFix (babelq-diagnostics))))

      ;; Completion inside the URN of "job" (line 2): the buffer's completion-at-point
      ;; functions (eglot's capf), and the completions its table gives for the text before point.
      (babelq-open "orders/order-created.babel.json")
      (babelq-goto 1 14)
      (let ((capf (run-hook-with-args-until-success 'completion-at-point-functions)))
        (unless capf (error "No completion-at-point function answered"))
        (babelq-see 'completion (vconcat (all-completions (buffer-substring-no-properties (nth 0 capf) (point)) (nth 2 capf)))))

      ;; Hover through eldoc: eglot's eldoc function, the text it hands eldoc.
      (let (hover)
        (run-hook-wrapped 'eldoc-documentation-functions
                          (lambda (fn) (funcall fn (lambda (doc &rest _) (when (stringp doc) (setq hover doc)))) nil))
        (babelq-wait-for (lambda () hover) "hover text through eldoc")
        (babelq-see 'hover (substring-no-properties hover)))

      ;; A registry.json made outside Emacs in a folder that held only a folder when eglot
      ;; registered its watchers (it watches the folders of the files it lists: nested/deeper/,
      ;; not nested/), so no event comes for it. The unvisited nested/deeper/invoice-paid.babel.json
      ;; finds it after the next save, and its URN is not in it. Removed afterwards.
      (let* ((fixture (expand-file-name "nested/deeper/invoice-paid.babel.json" babelq-root))
             (registry (expand-file-name "nested/registry.json" babelq-root))
             (codes (lambda ()
                      (mapcar (lambda (d) (let ((text (flymake-diagnostic-text d)))
                                            (if (string-match "\\[\\([^]]+\\)\\]" text) (match-string 1 text) text)))
                              (cdr (assoc fixture flymake-list-only-diagnostics))))))
        (when (funcall codes) (error "nested/deeper/invoice-paid.babel.json has findings before nested/registry.json is made"))
        (with-temp-file registry (insert "{ \"schemas\": [] }\n"))
        (unwind-protect
            (progn
              (set-buffer-modified-p t)
              (let ((make-backup-files nil)) (save-buffer))
              (babelq-wait-for (lambda () (member "unknown-urn" (funcall codes)))
                               "nested/deeper/invoice-paid.babel.json checked against nested/registry.json (made beside a folder) after a save")
              (babelq-see 'registryMadeBesideFolder (vconcat (funcall codes))))
          (delete-file registry))

      ;; A schema file rewritten in place outside Emacs (as a build regenerates it) in a folder that
      ;; holds only git-ignored files: project.el lists no ignored file, so eglot watches
      ;; ignored-only/, not ignored-only/generated/, and no event comes for it. The unvisited
      ;; ignored-only/invoice-paid.babel.json, whose registry names that schema, is checked against
      ;; the new text after the next save (its "GBP" no longer allowed). The schema's text is put
      ;; back afterwards.
      (let* ((fixture (expand-file-name "ignored-only/invoice-paid.babel.json" babelq-root))
             (schema (expand-file-name "ignored-only/generated/invoice-paid.json" babelq-root))
             (original (with-temp-buffer (insert-file-contents schema) (buffer-string)))
             (codes (lambda ()
                      (mapcar (lambda (d) (let ((text (flymake-diagnostic-text d)))
                                            (if (string-match "\\[\\([^]]+\\)\\]" text) (match-string 1 text) text)))
                              (cdr (assoc fixture flymake-list-only-diagnostics))))))
        (when (funcall codes) (error "ignored-only/invoice-paid.babel.json has findings before its schema is rewritten"))
        (unless (string-match-p "\"GBP\", " original) (error "ignored-only/generated/invoice-paid.json does not allow GBP"))
        ;; Written where it is, as a build writes it: not moved in, and without the lock file Emacs
        ;; would make beside it, so the folder itself does not change.
        (let ((create-lockfiles nil))
          (with-temp-file schema (insert (replace-regexp-in-string "\"GBP\", " "" original t t))))
        (unwind-protect
            (progn
              (set-buffer-modified-p t)
              (let ((make-backup-files nil)) (save-buffer))
              (babelq-wait-for (lambda () (member "payload-schema" (funcall codes)))
                               "ignored-only/invoice-paid.babel.json checked against its schema rewritten in a folder of git-ignored files, after a save")
              (babelq-see 'schemaRewrittenAmongIgnoredFiles (vconcat (funcall codes))))
          (let ((create-lockfiles nil)) (with-temp-file schema (insert original)))))

      ;; A schema file made outside Emacs in a folder made after eglot registered its watchers:
      ;; eglot watches only the folders that held project files then, so no event comes for it.
      ;; team/registry.json names team/schemas/missing.json; once it is there, the next save of
      ;; any buffer has the server read the registry again, and its registry-error goes. The
      ;; folder is removed afterwards, so the workspace is as it was.
      (let* ((registry (expand-file-name "team/registry.json" babelq-root))
             (folder (expand-file-name "team/schemas" babelq-root))
             (codes (lambda ()
                      (mapcar (lambda (d) (let ((text (flymake-diagnostic-text d)))
                                            (if (string-match "\\[\\([^]]+\\)\\]" text) (match-string 1 text) text)))
                              (cdr (assoc registry flymake-list-only-diagnostics))))))
        (unless (member "registry-error" (funcall codes)) (error "team/registry.json is not listed with registry-error before its schema is made"))
        (make-directory folder)
        (with-temp-file (expand-file-name "missing.json" folder) (insert "{ \"type\": \"object\" }\n"))
        (unwind-protect
            (progn
              ;; A save of a buffer the user did not change: its text is written as it is.
              (set-buffer-modified-p t)
              (let ((make-backup-files nil)) (save-buffer))
              (babelq-wait-for (lambda () (null (funcall codes))) "team/registry.json read again after a save, its schema made in a new folder")
              (babelq-see 'schemaMadeInNewFolder (vconcat (funcall codes))))
          (delete-directory folder t)))))
  (error (babelq-see 'error (error-message-string failure))))

(ignore-errors (let ((eglot-autoreconnect nil)) (eglot-shutdown (eglot-current-server))))
(with-temp-file babelq-out (insert (json-encode babelq-seen)))
(kill-emacs 0)
