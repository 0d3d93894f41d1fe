;;; eglot.el --- headless Emacs with eglot against the BabelQueue language server  -*- lexical-binding: t -*-
;; Registers the server in `eglot-server-programs' as a user's init file would, opens two fixtures
;; of the workspace, waits for the diagnostics flymake receives, and asks through eglot's own
;; connection for a URN completion, a hover and the quick fixes of a forbidden key. Writes what
;; Emacs saw to $BABELQ_OUT as JSON.
;;   BABELQ_SERVER=<…/babelq-language-server> BABELQ_WORKSPACE=<dir> BABELQ_OUT=<file> \
;;     emacs --batch -l test/editors/eglot.el
(require 'package)
(package-initialize)
(require 'eglot)
(require 'json)

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

(defun babelq-position-at (line character)
  (save-excursion
    (goto-char (point-min))
    (forward-line line)
    (forward-char character)
    (eglot--TextDocumentPositionParams)))

(condition-case failure
    (progn
      (babelq-open "bad/contract.babel.json")
      (babelq-wait-for (lambda () (flymake-diagnostics)) "flymake diagnostics for bad/contract.babel.json")
      (let (diagnostics forbidden)
        (dolist (d (flymake-diagnostics))
          (let* ((lsp (alist-get 'eglot-lsp-diag (flymake-diagnostic-data d)))
                 (code (or (plist-get lsp :code) (flymake-diagnostic-text d)))
                 (start (save-excursion (goto-char (flymake-diagnostic-beg d)) (cons (1- (line-number-at-pos)) (current-column)))))
            (push `((code . ,code) (line . ,(car start)) (character . ,(cdr start))
                    (type . ,(symbol-name (flymake-diagnostic-type d))) (text . ,(flymake-diagnostic-text d)))
                  diagnostics)
            (when (and lsp (equal code "forbidden-key") (not forbidden)) (setq forbidden lsp))))
        (babelq-see 'diagnostics (vconcat (nreverse diagnostics)))
        (when forbidden
          (let ((actions (jsonrpc-request (eglot-current-server) :textDocument/codeAction
                                          (list :textDocument (eglot--TextDocumentIdentifier)
                                                :range (plist-get forbidden :range)
                                                :context (list :diagnostics (vector forbidden))))))
            (babelq-see 'codeActions (vconcat (mapcar (lambda (action) (plist-get action :title)) actions))))))
      (babelq-open "orders/order-created.babel.json")
      ;; Inside the URN of "job" on line 2.
      (let* ((position (babelq-position-at 1 14))
             (completion (jsonrpc-request (eglot-current-server) :textDocument/completion position))
             (items (if (vectorp completion) completion (plist-get completion :items)))
             (hover (jsonrpc-request (eglot-current-server) :textDocument/hover position)))
        (babelq-see 'completion (vconcat (mapcar (lambda (item) (plist-get item :label)) items)))
        (babelq-see 'hover (let ((contents (plist-get hover :contents))) (if (stringp contents) contents (plist-get contents :value))))))
  (error (babelq-see 'error (error-message-string failure))))

(ignore-errors (eglot-shutdown (eglot-current-server)))
(with-temp-file babelq-out (insert (json-encode babelq-seen)))
(kill-emacs 0)
